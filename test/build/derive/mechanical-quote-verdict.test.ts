import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QuoteCheck, SourceReview } from '../../../build/corpus/corpus-types.ts';
import { latestConclusiveQuoteCheck } from '../../../build/derive/mechanical-quote-verdict.ts';
import { quoteDigest } from '../../../build/derive/quote-digest.ts';

const URL = 'https://example.gov/roof-grant';
const QUOTE = 'Eligible homeowners may receive up to $15,000 for roof replacement.';
const REVIEW: SourceReview = {
  city: 'detroit', programId: 'roof-1', reviewedAt: '2026-06-15', kind: 'amount', identityMatch: true, amountQuote: QUOTE, quoteFoundInPage: true,
};

/** A check of REVIEW's quote on URL; `rederivedBy` marks it as a replay's re-derivation of its date's fetch. */
function quoteCheck(outcome: QuoteCheck['outcome'], checkedAt: string, rederivedBy?: string): QuoteCheck {
  const base = { city: 'detroit', programId: 'roof-1', reviewedAt: '2026-06-15', quoteSha256: quoteDigest(QUOTE), url: URL, finalUrl: URL, checkedAt, contentType: 'text/html' };
  const judged = outcome === 'inconclusive'
    ? { ...base, outcome, reason: 'page extraction exceeded 352 MiB of memory' }
    : outcome === 'found'
      ? { ...base, outcome, textLength: 10, textSha256: 'a'.repeat(64) }
      : { ...base, outcome, textLength: 10, textSha256: 'a'.repeat(64), statedAmounts: [] };
  return (rederivedBy === undefined ? judged : { ...judged, rederived: { extractor: rederivedBy, from: checkedAt } }) as QuoteCheck;
}

describe('latestConclusiveQuoteCheck', () => {
  const rows: Array<[string, QuoteCheck[], QuoteCheck['outcome'] | undefined]> = [
    ['greatest checkedAt wins whatever the order', [quoteCheck('not-found', '2026-06-25'), quoteCheck('found', '2026-06-20')], 'not-found'],
    ['same date, no re-derivation: the later line wins', [quoteCheck('found', '2026-06-20'), quoteCheck('not-found', '2026-06-20')], 'not-found'],
    ['an inconclusive later check passes over', [quoteCheck('found', '2026-06-18'), quoteCheck('inconclusive', '2026-06-20')], 'found'],
    ['a re-derivation replaces the fetch it re-judged', [quoteCheck('found', '2026-06-20'), quoteCheck('not-found', '2026-06-20', '2')], 'not-found'],
    ['a re-derivation wins its date in whatever line order', [quoteCheck('not-found', '2026-06-20', '2'), quoteCheck('found', '2026-06-20')], 'not-found'],
    ['an inconclusive re-derivation withdraws the verdict of its fetch', [quoteCheck('found', '2026-06-20'), quoteCheck('inconclusive', '2026-06-20', '2')], undefined],
    ['... and an older fetch decides again', [quoteCheck('not-found', '2026-06-13'), quoteCheck('found', '2026-06-20'), quoteCheck('inconclusive', '2026-06-20', '2')], 'not-found'],
    ['the last re-derivation of a fetch counts, not an earlier one', [quoteCheck('found', '2026-06-20'), quoteCheck('not-found', '2026-06-20', '2'), quoteCheck('inconclusive', '2026-06-20', '3')], undefined],
    ['a re-derivation of an older fetch does not outrank a newer fetch', [quoteCheck('found', '2026-06-13'), quoteCheck('found', '2026-06-20'), quoteCheck('not-found', '2026-06-13', '2')], 'found'],
  ];
  for (const [name, checks, expected] of rows) {
    it(name, () => assert.equal(latestConclusiveQuoteCheck(REVIEW, URL, checks)?.outcome, expected));
  }
});
