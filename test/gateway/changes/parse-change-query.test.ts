import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type ErrorCode } from '../../../gateway/http/api-error.ts';
import { DEFAULT_CHANGE_LIMIT, parseChangeQuery } from '../../../gateway/changes/parse-change-query.ts';

type Query = Record<string, string | string[] | undefined>;

describe('parseChangeQuery', () => {
  it('reads a full query', () => {
    assert.deepEqual(parseChangeQuery({ since: '2026-10-01', limit: '25', city: 'beta', cursor: 'abc.def', other: 'ignored' }), {
      since: '2026-10-01',
      windowStart: '2026-10-01T00:00:00.000Z',
      sinceMillis: Date.parse('2026-10-01T00:00:00Z'),
      limit: 25,
      city: 'beta',
      cursor: 'abc.def',
    });
  });

  const valid: Array<{ query: Query; limit: number; windowStart: string }> = [
    { query: { since: '2026-10-01' }, limit: DEFAULT_CHANGE_LIMIT, windowStart: '2026-10-01T00:00:00.000Z' },
    { query: { since: '2024-02-29', limit: '1' }, limit: 1, windowStart: '2024-02-29T00:00:00.000Z' },
    { query: { since: '0099-12-31', limit: '1000' }, limit: 1000, windowStart: '0099-12-31T00:00:00.000Z' },
  ];
  for (const { query, limit, windowStart } of valid) {
    it(`accepts ${JSON.stringify(query)}`, () => {
      const parsed = parseChangeQuery(query);
      assert.equal(parsed.limit, limit);
      assert.equal(parsed.windowStart, windowStart);
      assert.equal(new Date(parsed.sinceMillis).toISOString(), windowStart);
    });
  }

  const refused: Array<{ query: Query; status: number; code: ErrorCode }> = [
    { query: {}, status: 400, code: 'INVALID_DATE' },
    { query: { since: '' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2026-02-30' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2025-02-29' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2026-13-01' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2026-00-10' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2026-1-01' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2026-10-01T00:00:00Z' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: ' 2026-10-01' }, status: 400, code: 'INVALID_DATE' },
    { query: { since: ['2026-10-01', '2026-10-01'] }, status: 400, code: 'INVALID_DATE' },
    { query: { since: '2026-10-01', limit: '0' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '1001' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: 'abc' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '1.5' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '-5' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '+5' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '010' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '1e2' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: '' }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', limit: ['10', '10'] }, status: 400, code: 'INVALID_LIMIT' },
    { query: { since: '2026-10-01', city: 'Beta' }, status: 400, code: 'INVALID_CITY_SLUG' },
    { query: { since: '2026-10-01', cursor: '' }, status: 400, code: 'INVALID_CURSOR' },
    { query: { since: '2026-10-01', cursor: ['a', 'b'] }, status: 400, code: 'INVALID_CURSOR' },
    { query: { since: '2026-10-01', cursor: 'x'.repeat(1025) }, status: 400, code: 'INVALID_CURSOR' },
  ];
  for (const { query, status, code } of refused) {
    it(`refuses ${JSON.stringify(query).slice(0, 60)} with ${status} ${code}`, () => {
      assert.throws(() => parseChangeQuery(query), (error: unknown) => error instanceof ApiError && error.status === status && error.code === code);
    });
  }
});
