/** The three-strikes rule, row by row. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LinkCheck } from '../../../build/corpus/corpus-types.ts';
import { findLikelyClosed } from '../../../build/links/find-likely-closed.ts';

const url = 'http://a.test/roof';
const at = (checkedAt: string, outcome: LinkCheck['outcome'], httpStatus: number | null): LinkCheck => ({
  url, checkedAt, outcome, httpStatus, ...(outcome === 'live' ? { pageClass: 'program' as const } : {}),
});

const rows: Array<{ what: string; attempts: LinkCheck[]; expected: string[] | undefined }> = [
  { what: '404, 410, 404 on three dates', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-09', 'dead', 410), at('2026-11-16', 'dead', 404)], expected: ['2026-11-02', '2026-11-09', '2026-11-16'] },
  { what: 'only two dates', attempts: [at('2026-11-09', 'dead', 404), at('2026-11-16', 'dead', 404)], expected: undefined },
  { what: 'three attempts on two dates', attempts: [at('2026-11-09', 'dead', 404), at('2026-11-16', 'dead', 404), at('2026-11-16', 'dead', 404)], expected: undefined },
  { what: 'inconclusive attempts neither count nor break the run', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-05', 'inconclusive', 503), at('2026-11-09', 'dead', 404), at('2026-11-12', 'inconclusive', null), at('2026-11-16', 'dead', 410)], expected: ['2026-11-02', '2026-11-09', '2026-11-16'] },
  { what: 'a live answer among the last three', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-09', 'live', 200), at('2026-11-16', 'dead', 404)], expected: undefined },
  { what: 'an older live answer does not matter', attempts: [at('2026-10-26', 'live', 200), at('2026-11-02', 'dead', 404), at('2026-11-09', 'dead', 404), at('2026-11-16', 'dead', 404)], expected: ['2026-11-02', '2026-11-09', '2026-11-16'] },
  { what: 'a soft 404 (dead, 200) is conclusive but not a 404', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-09', 'dead', 200), at('2026-11-16', 'dead', 404)], expected: undefined },
  { what: 'bot-blocked is conclusive and breaks the run', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-09', 'bot-blocked', 403), at('2026-11-16', 'dead', 404)], expected: undefined },
  { what: 'a same-day re-check replaces that day (later line wins)', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-09', 'live', 200), at('2026-11-09', 'dead', 404), at('2026-11-16', 'dead', 404)], expected: ['2026-11-02', '2026-11-09', '2026-11-16'] },
  { what: 'a same-day re-check that came back live clears it', attempts: [at('2026-11-02', 'dead', 404), at('2026-11-09', 'dead', 404), at('2026-11-16', 'dead', 404), at('2026-11-16', 'live', 200)], expected: undefined },
  { what: 'file order does not matter across dates', attempts: [at('2026-11-16', 'dead', 404), at('2026-11-02', 'dead', 410), at('2026-11-09', 'dead', 404)], expected: ['2026-11-02', '2026-11-09', '2026-11-16'] },
];

describe('findLikelyClosed', () => {
  for (const row of rows) it(row.what, () => assert.deepEqual(findLikelyClosed(row.attempts), row.expected));
});
