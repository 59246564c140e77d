/** How many served amount quotes still rest on the hand-typed `quoteFoundInPage` (`hra validate` prints it). */
import type { Corpus } from '../corpus/corpus-types.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { groupBy } from '../derive/group-by.ts';
import { latestReview } from '../derive/latest-review.ts';
import { latestConclusiveQuoteCheck } from '../derive/mechanical-quote-verdict.ts';
import { visitCitations } from './visit-citations.ts';

/** Served records whose latest review quotes an amount, split by what decides their `sourceQuoteVerified`. */
export interface QuoteVerificationCounts {
  amountQuotes: number;
  /** Decided by a conclusive mechanical check of the current quote on the cited URL. */
  checked: number;
  /** Never checked conclusively: the review's hand-typed flag is served. */
  handTyped: number;
}

/** Counts, over the records `links check` would visit (live cities and national, URLs after corrections). */
export function countHandTypedQuotes(corpus: Corpus): QuoteVerificationCounts {
  const reviews = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const checks = groupBy(corpus.quoteChecks, (check) => recordKey(check.city, check.programId));
  const counts: QuoteVerificationCounts = { amountQuotes: 0, checked: 0, handTyped: 0 };
  visitCitations(corpus, ({ city, programId, url }) => {
    const key = recordKey(city, programId);
    const review = latestReview(reviews.get(key) ?? []);
    if (review?.kind !== 'amount' || review.amountQuote === undefined) return;
    counts.amountQuotes += 1;
    if (latestConclusiveQuoteCheck(review, url, checks.get(key) ?? []) === undefined) counts.handTyped += 1;
    else counts.checked += 1;
  });
  return counts;
}
