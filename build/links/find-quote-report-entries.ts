/**
 * The review-side lists of `hra links report`: amount quotes the latest quote check no longer found, with
 * the amounts the page states, and reviews about to turn stale.
 */
import type { Corpus, QuoteCheck } from '../corpus/corpus-types.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { reviewStaleDay } from '../derive/derive-freshness.ts';
import { groupBy } from '../derive/group-by.ts';
import { latestReview } from '../derive/latest-review.ts';
import { latestConclusiveQuoteCheck } from '../derive/mechanical-quote-verdict.ts';
import { utcDayNumber } from '../derive/utc-day-number.ts';
import { visitCitations } from './visit-citations.ts';

/** How far ahead the report looks for reviews turning stale, in days. */
export const STALE_WARNING_DAYS = 14;

/** A served record whose current amount quote the latest conclusive check did not find. */
export interface QuoteNotFound {
  city: string;
  programId: string;
  url: string;
  finalUrl: string | null;
  checkedAt: string;
  quote: string;
  /** The record's served maxAmount, after corrections. */
  maxAmount: number | null;
  /** What the page states now: candidates for a correction, never applied. */
  statedAmounts: NonNullable<QuoteCheck['statedAmounts']>;
}

/** A served record whose latest review turns stale within the warning window. */
export interface ReviewTurningStale {
  city: string;
  programId: string;
  reviewedAt: string;
  kind: 'identity' | 'amount';
  /** The first day the review counts as stale (reviewedAt + 90 days). */
  staleOn: string;
}

/** Both lists, each sorted by city then program id. */
export interface QuoteReportEntries {
  quotesNotFound: QuoteNotFound[];
  staleSoon: ReviewTurningStale[];
}

/** Finds both lists as of `today` (YYYY-MM-DD): stale on a day after today and at most 14 days after it. */
export function findQuoteReportEntries(corpus: Corpus, today: string): QuoteReportEntries {
  const reviews = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const checks = groupBy(corpus.quoteChecks, (check) => recordKey(check.city, check.programId));
  const todayNumber = utcDayNumber(today, 'today');
  const quotesNotFound: QuoteNotFound[] = [];
  const staleSoon: ReviewTurningStale[] = [];
  visitCitations(corpus, ({ city, programId, url, maxAmount }) => {
    const key = recordKey(city, programId);
    const review = latestReview(reviews.get(key) ?? []);
    if (review === undefined) return;
    const staleNumber = reviewStaleDay(review.reviewedAt);
    if (staleNumber > todayNumber && staleNumber <= todayNumber + STALE_WARNING_DAYS) {
      staleSoon.push({ city, programId, reviewedAt: review.reviewedAt, kind: review.kind, staleOn: dayString(staleNumber) });
    }
    const check = latestConclusiveQuoteCheck(review, url, checks.get(key) ?? []);
    if (check?.outcome === 'not-found' && review.amountQuote !== undefined) {
      quotesNotFound.push({
        city, programId, url, finalUrl: check.finalUrl, checkedAt: check.checkedAt, quote: review.amountQuote,
        maxAmount: typeof maxAmount === 'number' ? maxAmount : null, statedAmounts: check.statedAmounts ?? [],
      });
    }
  });
  const byRecord = (a: { city: string; programId: string }, b: { city: string; programId: string }) => compare(a.city, b.city) || compare(a.programId, b.programId);
  return { quotesNotFound: quotesNotFound.sort(byRecord), staleSoon: staleSoon.sort(byRecord) };
}

function dayString(dayNumber: number): string {
  return new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
