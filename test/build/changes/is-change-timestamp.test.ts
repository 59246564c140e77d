import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isChangeTimestamp } from '../../../build/changes/is-change-timestamp.ts';

describe('isChangeTimestamp', () => {
  const cases: Array<[string, boolean]> = [
    ['2026-11-16T06:00:00Z', true],
    ['2026-11-16T06:00:00.125Z', true],
    ['2026-11-16T06:00:00+02:00', true],
    ['2026-11-16T06:00:00-05:00', true],
    ['2026-11-16', false],
    ['2026-11-16T06:00:00', false],
    ['2026-11-16T06:00Z', false],
    ['2026-11-16 06:00:00Z', false],
    ['2026-02-30T06:00:00Z', false],
    ['2026-11-16T25:00:00Z', false],
    ['next monday', false],
    ['', false],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} -> ${expected}`, () => assert.equal(isChangeTimestamp(text), expected));
  }
});
