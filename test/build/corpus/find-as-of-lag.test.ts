import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAsOfLag } from '../../../build/corpus/find-as-of-lag.ts';
import type { Corpus } from '../../../build/corpus/corpus-types.ts';

type Inputs = Parameters<typeof findAsOfLag>[0];
const corpus = (asOf: string, dates: { link?: string[]; quote?: string[]; review?: string[] }): Inputs => ({
  manifest: { asOf } as Corpus['manifest'],
  linkChecks: (dates.link ?? []).map((checkedAt) => ({ checkedAt }) as Corpus['linkChecks'][number]),
  quoteChecks: (dates.quote ?? []).map((checkedAt) => ({ checkedAt }) as Corpus['quoteChecks'][number]),
  sourceReviews: (dates.review ?? []).map((reviewedAt) => ({ reviewedAt }) as Corpus['sourceReviews'][number]),
});

describe('findAsOfLag', () => {
  it('names the newest evidence later than asOf, and its file', () => {
    assert.deepEqual(findAsOfLag(corpus('2026-11-16', { link: ['2026-11-20', '2026-11-01'], quote: ['2026-11-18'], review: ['2026-11-02'] })),
      { asOf: '2026-11-16', newest: '2026-11-20', file: 'evidence/link-checks.ndjson' });
    assert.deepEqual(findAsOfLag(corpus('2026-11-16', { link: ['2026-11-10'], review: ['2026-11-29'] })),
      { asOf: '2026-11-16', newest: '2026-11-29', file: 'evidence/source-reviews.ndjson' });
  });

  it('says nothing when asOf is at or past every evidence date', () => {
    assert.equal(findAsOfLag(corpus('2026-11-16', { link: ['2026-11-16'], quote: ['2026-11-02'], review: ['2026-10-01'] })), undefined);
    assert.equal(findAsOfLag(corpus('2026-11-16', {})), undefined);
  });
});
