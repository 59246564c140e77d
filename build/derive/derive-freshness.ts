/**
 * Derives a record's spec 2.2 `freshness` object from its evidence: the link-check attempts on its cited
 * URL and its dated source reviews. Pure: the manifest's as-of date stands in for "today".
 */
import type { ConfidenceTier, LinkStatus } from '../contract/vocab-enums.ts';
import type { LinkCheck, QuoteCheck, SourceReview } from '../corpus/corpus-types.ts';
import { findQuotedAmount, type QuotedAmount } from './find-quoted-amount.ts';
import type { Freshness } from './freshness-types.ts';
import { latestReview } from './latest-review.ts';
import { mechanicalQuoteVerdict } from './mechanical-quote-verdict.ts';
import { utcDayNumber } from './utc-day-number.ts';

/** A review this many days old or older is stale (spec 2.2: "at least 90 days old"). */
export const REVIEW_STALE_AFTER_DAYS = 90;

/**
 * The first UTC day number on which a review dated `reviewedAt` counts as stale: the one staleness rule,
 * which the derivation, `links report` and `reviews due` all read.
 */
export function reviewStaleDay(reviewedAt: string): number {
  return utcDayNumber(reviewedAt, 'reviewedAt') + REVIEW_STALE_AFTER_DAYS;
}

/** Longest `sourceEvidence` excerpt, in characters (code points), ellipses included. */
export const EVIDENCE_MAX_CHARS = 280;

/** Everything deriveFreshness reads; the caller has already selected the evidence for this record. */
export interface FreshnessInputs {
  /** Cited URL; null means there is nothing to check, so the link reads `unchecked`. */
  url: string | null;
  /** The current amount, after corrections: a review only binds the amount the record states today. */
  maxAmount: number | null | undefined;
  isFederalCanonical: boolean;
  /** Every attempt on `url`, in file order (order matters only to break same-day ties). */
  linkChecks: readonly LinkCheck[];
  /** Every review of this record, in file order (order matters only to break same-day ties). */
  reviews: readonly SourceReview[];
  /** Every mechanical quote check of this record, in file order. */
  quoteChecks: readonly QuoteCheck[];
  /** Manifest as-of date, YYYY-MM-DD. */
  asOf: string;
}

/**
 * Builds the `freshness` object for one record.
 *
 * Latest check / latest review: greatest `checkedAt` / `reviewedAt`; on the same date the later array
 * element wins (a later file line records a later attempt). Link status: `live`, `dead`, `bot-blocked`
 * map to themselves; `inconclusive`, no attempt, or a null url read `unchecked`. `lastChecked` is the
 * latest attempt's date even when inconclusive, null when never checked (or the url is null).
 *
 * Amount binding: `sourceAmountVerified` is true only when the latest review is of kind `amount`, judged
 * identity a match, maxAmount is positive, and the quote states that exact figure (findQuotedAmount).
 * `sourceVerified` always equals it; `sourceQuoteVerified` additionally needs the quote found in the page:
 * the latest conclusive mechanical check of this review's quote on the cited URL decides (`found` true,
 * `not-found` false; mechanicalQuoteVerdict), and only a quote never checked conclusively falls back to
 * the review's hand-typed `quoteFoundInPage`.
 * Staleness: latest `reviewedAt` <= asOf - 90 days, counted in whole UTC days.
 *
 * Confidence, first matching row wins:
 *
 * | # | Condition                                                          | confidence               |
 * |---|--------------------------------------------------------------------|--------------------------|
 * | 1 | isFederalCanonical                                                 | federal-canonical        |
 * | 2 | linkStatus is not `live` (dead, bot-blocked, unchecked)            | unverified               |
 * | 3 | review not stale, sourceAmountVerified and sourceQuoteVerified     | source-verified          |
 * | 4 | review not stale, latest review identityMatch                      | model-identity-reviewed  |
 * | 5 | latest (live) check has pageClass `program`                        | link-verified            |
 * | 6 | otherwise (pageClass `agency`, or absent)                          | link-resolves-unverified |
 *
 * Keys, always in this order, omitted rather than nulled when they do not apply:
 * - no review: linkStatus, confidence, lastChecked, sourceReviewed (false);
 * - a review: also sourceReviewStale, sourceProgramVerified, sourceAmountVerified, sourceVerified,
 *   sourceQuoteVerified, then sourceEvidence and sourceVerifiedAmount only when amount-verified, then
 *   sourceVerifiedAt.
 */
export function deriveFreshness(inputs: FreshnessInputs): Freshness {
  const asOfDay = utcDayNumber(inputs.asOf, 'asOf');
  const check = inputs.url === null ? undefined : latest(inputs.linkChecks, (c) => c.checkedAt);
  const linkStatus: LinkStatus = check === undefined || check.outcome === 'inconclusive' ? 'unchecked' : check.outcome;
  const lastChecked = check?.checkedAt ?? null;
  const review = latestReview(inputs.reviews);

  if (review === undefined) {
    const confidence = chooseConfidence(inputs.isFederalCanonical, linkStatus, check, false, false);
    return { linkStatus, confidence, lastChecked, sourceReviewed: false };
  }

  const stale = asOfDay >= reviewStaleDay(review.reviewedAt);
  const quote = review.amountQuote?.trim() ?? '';
  const figure = bindAmount(review, quote, inputs.maxAmount);
  const amountVerified = figure !== undefined;
  const mechanical = mechanicalQuoteVerdict(review, inputs.url, inputs.quoteChecks);
  const quoteVerified = amountVerified && (mechanical === undefined ? review.quoteFoundInPage === true : mechanical === 'found');
  const fresh = !stale;
  const confidence = chooseConfidence(
    inputs.isFederalCanonical, linkStatus, check, fresh && amountVerified && quoteVerified, fresh && review.identityMatch,
  );
  return {
    linkStatus,
    confidence,
    lastChecked,
    sourceReviewed: true,
    sourceReviewStale: stale,
    sourceProgramVerified: review.identityMatch,
    sourceAmountVerified: amountVerified,
    sourceVerified: amountVerified,
    sourceQuoteVerified: quoteVerified,
    ...(figure === undefined ? {} : { sourceEvidence: excerpt(quote, figure), sourceVerifiedAmount: figure.text }),
    sourceVerifiedAt: review.reviewedAt,
  };
}

function chooseConfidence(
  federal: boolean, linkStatus: LinkStatus, check: LinkCheck | undefined,
  sourceVerified: boolean, identityReviewed: boolean,
): ConfidenceTier {
  if (federal) return 'federal-canonical';
  if (linkStatus !== 'live') return 'unverified';
  if (sourceVerified) return 'source-verified';
  if (identityReviewed) return 'model-identity-reviewed';
  // The corpus schema requires pageClass on live checks; if it is ever missing, claim the weaker label.
  return check?.pageClass === 'program' ? 'link-verified' : 'link-resolves-unverified';
}

function bindAmount(review: SourceReview, quote: string, maxAmount: number | null | undefined): QuotedAmount | undefined {
  if (review.kind !== 'amount' || !review.identityMatch || typeof maxAmount !== 'number') return undefined;
  return findQuotedAmount(quote, maxAmount);
}

/** Greatest by date key; on equal dates the later element wins, so the loop keeps `>=`. */
function latest<T>(items: readonly T[], dateOf: (item: T) => string): T | undefined {
  let best: T | undefined;
  for (const item of items) if (best === undefined || dateOf(item) >= dateOf(best)) best = item;
  return best;
}

/** Cuts a long quote to a window around the matched figure, so the evidence always shows it. */
function excerpt(quote: string, figure: QuotedAmount): string {
  const chars = Array.from(quote);
  if (chars.length <= EVIDENCE_MAX_CHARS) return quote;
  const at = Array.from(quote.slice(0, figure.index)).length;
  const width = Array.from(figure.text).length;
  const body = EVIDENCE_MAX_CHARS - 2; // room for an ellipsis on each side
  const start = Math.max(0, Math.min(at - Math.floor((body - width) / 2), chars.length - body));
  const end = start + body;
  return (start > 0 ? '…' : '') + chars.slice(start, end).join('') + (end < chars.length ? '…' : '');
}
