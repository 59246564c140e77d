/**
 * The review queue (`hra reviews due`): every served city record whose tier rests on a review it lacks, or
 * on one that is stale, turns stale soon, or no longer holds (its URL corrected since, its amount corrected
 * since an amount review, or the cited URL's archived page no longer the bytes the review saw). Staleness is
 * the derivation's own rule (reviewStaleDay), so this queue, `links report` and the served tiers agree.
 * National records are left out: they are federal-canonical whatever their reviews say.
 */
import type { ConfidenceTier } from '../contract/vocab-enums.ts';
import type { Corpus } from '../corpus/corpus-types.ts';
import { createFreshnessDeriver, createRecordDeriver } from '../derive/derive-record.ts';
import { DUE_REASONS, visitDueRecords, type DueReason, type DueReviewOptions } from './visit-due-records.ts';

export { DUE_REASONS, type DueReason, type DueReviewOptions } from './visit-due-records.ts';

/** One record that needs a review. */
export interface DueReview {
  city: string;
  programId: string;
  name: string;
  /** The cited URL as served (after corrections). */
  url: string;
  maxAmount: number | null;
  reason: DueReason;
  /** The tier the record holds at `at`, and the one it holds (or falls to) without the review. */
  tierNow: ConfidenceTier;
  tierWithout: ConfidenceTier;
  /** When the reason took or takes effect (the stale day, the correction's date, the new page's check); null for no review. */
  date: string | null;
  /** The latest review's date, when there is one. */
  reviewedAt?: string;
}

/** The queue, soonest first, and how many records each reason holds. */
export interface DueReviews {
  at: string;
  withinDays: number;
  due: DueReview[];
  counts: Record<DueReason, number>;
}

/** Default `--within-days`: links report's warning window, so the two lists agree. */
export const DEFAULT_DUE_WITHIN_DAYS = 14;

/** Draws up the queue (see the file head): the rule picks the due records, and only those are derived. */
export function findDueReviews(corpus: Corpus, options: DueReviewOptions): DueReviews {
  const at = { ...corpus, manifest: { ...corpus.manifest, asOf: options.at } };
  const derive = createRecordDeriver(at);
  // The tier without the review needs only freshness: the record itself is derived once, with its reviews.
  const freshnessWithout = createFreshnessDeriver({ ...at, sourceReviews: [] });
  const due: DueReview[] = [];
  visitDueRecords(corpus, options, ({ city, stored, url, reason, date, review }) => {
    const record = derive(city, stored);
    due.push({
      city, programId: stored.id, name: record.name, url, maxAmount: servedAmount(record.body),
      reason, tierNow: record.freshness.confidence, tierWithout: freshnessWithout(city, stored).confidence, date,
      ...(review === undefined ? {} : { reviewedAt: review.reviewedAt }),
    });
  });
  const rank = (item: DueReview) => item.date ?? '';
  due.sort((a, b) => compare(rank(a), rank(b)) || DUE_REASONS.indexOf(a.reason) - DUE_REASONS.indexOf(b.reason) || compare(a.city, b.city) || compare(a.programId, b.programId));
  const counts = Object.fromEntries(DUE_REASONS.map((reason) => [reason, 0])) as Record<DueReason, number>;
  for (const item of due) counts[item.reason] += 1;
  return { at: options.at, withinDays: options.withinDays, due, counts };
}

/** The served maxAmount, read from the served bytes: after corrections, as the derivation saw it. */
function servedAmount(body: string): number | null {
  const value = (JSON.parse(body) as { maxAmount?: unknown }).maxAmount;
  return typeof value === 'number' ? value : null;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
