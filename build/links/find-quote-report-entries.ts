/**
 * The review-side lists of `hra links report`: amount quotes the latest quote check no longer found, with
 * the amounts the page states; accepted reviews whose amount quote states another amount than the record's;
 * and reviews about to turn stale.
 */
import type { Corpus, QuoteCheck } from '../corpus/corpus-types.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { reviewStaleDay } from '../derive/derive-freshness.ts';
import { groupBy } from '../derive/group-by.ts';
import { latestReview } from '../derive/latest-review.ts';
import { findQuotedAmount } from '../derive/find-quoted-amount.ts';
import { latestConclusiveQuoteCheck } from '../derive/mechanical-quote-verdict.ts';
import { findDollarAmounts, type StatedAmount } from '../quotes/find-dollar-amounts.ts';
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

/**
 * A served record whose latest review, made by a model or a person and accepted (its quote found in the
 * archived page), quotes the page stating another amount than the record's `maxAmount`: the review counts
 * for identity alone, and the amount is a candidate for a correction, never applied.
 */
export interface ReviewedAmountDiffers {
  city: string;
  programId: string;
  url: string;
  reviewedAt: string;
  reviewer: 'model' | 'person';
  quote: string;
  /** The record's served maxAmount, after corrections. */
  maxAmount: number | null;
  /** The amounts the quote states (find-dollar-amounts.ts): the candidates. */
  statedAmounts: StatedAmount[];
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
  reviewedAmounts: ReviewedAmountDiffers[];
  staleSoon: ReviewTurningStale[];
}

/** Finds both lists as of `today` (YYYY-MM-DD): stale on a day after today and at most 14 days after it. */
export function findQuoteReportEntries(corpus: Corpus, today: string): QuoteReportEntries {
  const reviews = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const checks = groupBy(corpus.quoteChecks, (check) => recordKey(check.city, check.programId));
  const todayNumber = utcDayNumber(today, 'today');
  const quotesNotFound: QuoteNotFound[] = [];
  const staleSoon: ReviewTurningStale[] = [];
  const reviewedAmounts: ReviewedAmountDiffers[] = [];
  visitCitations(corpus, ({ city, programId, url, maxAmount }) => {
    const key = recordKey(city, programId);
    const review = latestReview(reviews.get(key) ?? []);
    if (review === undefined) return;
    const staleNumber = reviewStaleDay(review.reviewedAt);
    if (staleNumber > todayNumber && staleNumber <= todayNumber + STALE_WARNING_DAYS) {
      staleSoon.push({ city, programId, reviewedAt: review.reviewedAt, kind: review.kind, staleOn: dayString(staleNumber) });
    }
    // The derivation binds an amount only when the quote states maxAmount (derive-freshness.ts); an accepted
    // quote of another figure is what the page says now, so it is shown, never applied.
    const amount = typeof maxAmount === 'number' ? maxAmount : null;
    if (review.kind === 'amount' && review.identityMatch && review.quoteFoundInPage === true && review.reviewer !== undefined && review.amountQuote !== undefined
      && (amount === null || findQuotedAmount(review.amountQuote, amount) === undefined)) {
      reviewedAmounts.push({
        city, programId, url, reviewedAt: review.reviewedAt, reviewer: review.reviewer.kind, quote: review.amountQuote, maxAmount: amount,
        statedAmounts: findDollarAmounts(review.amountQuote),
      });
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
  return { quotesNotFound: quotesNotFound.sort(byRecord), reviewedAmounts: reviewedAmounts.sort(byRecord), staleSoon: staleSoon.sort(byRecord) };
}

function dayString(dayNumber: number): string {
  return new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
