import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, retryAfterMs } from '../../../build/links/retry-delay.ts';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-20T06:00:00Z');
  const rows: Array<[string | string[] | undefined, number | undefined]> = [
    ['120', 120_000],
    [' 0 ', 0],
    ['Fri, 20 Nov 2026 06:01:00 GMT', 60_000],
    ['Fri, 20 Nov 2026 05:00:00 GMT', 0],
    [['5', '9'], 5000],
    ['soon', undefined],
    ['-5', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [value, expected] of rows) it(`${JSON.stringify(value)} -> ${expected}`, () => assert.equal(retryAfterMs(value, now), expected));
});

describe('backoffMs', () => {
  it('doubles per retry, jittered within [base * 2^(n-1), base * 2^n)', () => {
    assert.deepEqual([1, 2, 3].map((retry) => backoffMs(retry, 100, () => 0)), [100, 200, 400]);
    assert.deepEqual([1, 2, 3].map((retry) => backoffMs(retry, 100, () => 0.999)), [200, 400, 800]);
  });
});
