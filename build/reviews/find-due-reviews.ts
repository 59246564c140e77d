/**
 * The review queue (`hra reviews due`): every served city record whose tier rests on a review it lacks, or
 * on one that is stale, turns stale soon, or no longer holds (its URL corrected since, its amount corrected
 * since an amount review, or the cited URL's archived page no longer the bytes the review saw). Staleness is
 * the derivation's own rule (reviewStaleDay), so this queue, `links report` and the served tiers agree.
 * National records are left out: they are federal-canonical whatever their reviews say.
 */
import type { ConfidenceTier } from '../contract/vocab-enums.ts';
import type { Corpus, LinkCheck, ProgramRow } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { createRecordDeriver } from '../derive/derive-record.ts';
import { reviewStaleDay } from '../derive/derive-freshness.ts';
import { groupBy } from '../derive/group-by.ts';
import { latestReview } from '../derive/latest-review.ts';
import { utcDayNumber } from '../derive/utc-day-number.ts';

/** Why a record is in the queue, most urgent first. */
export const DUE_REASONS = ['no-review', 'stale', 'url-corrected', 'amount-corrected', 'page-changed', 'turns-stale'] as const;

/** One of DUE_REASONS. */
export type DueReason = (typeof DUE_REASONS)[number];

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

/** Options of findDueReviews. */
export interface DueReviewOptions {
  /** The day the queue is drawn up for, YYYY-MM-DD (`--at`; the manifest's asOf by default). */
  at: string;
  /** Records whose review turns stale within this many days of `at` are due as well (default 14). */
  withinDays: number;
  /**
   * Only these records (recordKey of city and program id), the others not derived: `links check --url` asks
   * about the records its URLs cite, and deriving all 57,000 took 20-28 s under load.
   */
  records?: ReadonlySet<string>;
}

/** Default `--within-days`: links report's warning window, so the two lists agree. */
export const DEFAULT_DUE_WITHIN_DAYS = 14;

/** Draws up the queue (see the file head). */
export function findDueReviews(corpus: Corpus, options: DueReviewOptions): DueReviews {
  const at = { ...corpus, manifest: { ...corpus.manifest, asOf: options.at } };
  const derive = createRecordDeriver(at);
  const deriveWithout = createRecordDeriver({ ...at, sourceReviews: [] });
  const reviews = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const corrections = groupBy(corpus.corrections, (correction) => recordKey(correction.city, correction.programId));
  const checksByUrl = groupBy(corpus.linkChecks, (check) => check.url);
  const atDay = utcDayNumber(options.at, 'at');
  const due: DueReview[] = [];
  const only = options.records;
  // A city's slug holds no '/' (corpus-schemas.ts), so a key's city is what precedes its first.
  const cities = only === undefined ? undefined : new Set([...only].map((key) => key.slice(0, key.indexOf('/'))));
  for (const city of corpus.cities) {
    if (city.status !== 'live' || (cities !== undefined && !cities.has(city.slug))) continue;
    for (const stored of readCityPrograms(corpus, city.slug)) {
      if (only !== undefined && !only.has(recordKey(city.slug, stored.id))) continue;
      const record = derive(city.slug, stored);
      if (record.exclusion !== 'served' || typeof record.url !== 'string') continue;
      const key = recordKey(city.slug, stored.id);
      const review = latestReview(reviews.get(key) ?? []);
      const found = dueReason(review, corrections.get(key) ?? [], checksByUrl.get(record.url) ?? [], atDay, options.withinDays);
      if (found === undefined) continue;
      const without = deriveWithout(city.slug, stored);
      due.push({
        city: city.slug, programId: stored.id, name: record.name, url: record.url, maxAmount: servedAmount(record.body),
        reason: found.reason, tierNow: record.freshness.confidence, tierWithout: without.freshness.confidence, date: found.date,
        ...(review === undefined ? {} : { reviewedAt: review.reviewedAt }),
      });
    }
  }
  const rank = (item: DueReview) => item.date ?? '';
  due.sort((a, b) => compare(rank(a), rank(b)) || DUE_REASONS.indexOf(a.reason) - DUE_REASONS.indexOf(b.reason) || compare(a.city, b.city) || compare(a.programId, b.programId));
  const counts = Object.fromEntries(DUE_REASONS.map((reason) => [reason, 0])) as Record<DueReason, number>;
  for (const item of due) counts[item.reason] += 1;
  return { at: options.at, withinDays: options.withinDays, due, counts };
}

type Review = Corpus['sourceReviews'][number];

function dueReason(
  review: Review | undefined, corrections: readonly Corpus['corrections'][number][], checks: readonly LinkCheck[], atDay: number, withinDays: number,
): { reason: DueReason; date: string | null } | undefined {
  if (review === undefined) return { reason: 'no-review', date: null };
  const staleDay = reviewStaleDay(review.reviewedAt);
  if (staleDay <= atDay) return { reason: 'stale', date: dayString(staleDay) };
  // A correction dated after the review changed what the review looked at (a same-day one may be older).
  const since = (field: keyof ProgramRow) => corrections.filter((c) => c.field === field && c.date > review.reviewedAt).map((c) => c.date).sort().at(-1);
  const url = since('url');
  if (url !== undefined) return { reason: 'url-corrected', date: url };
  const amount = review.kind === 'amount' ? since('maxAmount') : undefined;
  if (amount !== undefined) return { reason: 'amount-corrected', date: amount };
  const seen = review.payloadSha256;
  const latest = latestArchived(checks);
  if (seen !== undefined && latest !== undefined && latest.payloadSha256 !== seen && latest.checkedAt >= review.reviewedAt) {
    return { reason: 'page-changed', date: latest.checkedAt };
  }
  if (staleDay <= atDay + withinDays) return { reason: 'turns-stale', date: dayString(staleDay) };
  return undefined;
}

/** The latest live link check that archived its page: the bytes a new review would read. */
function latestArchived(checks: readonly LinkCheck[]): LinkCheck | undefined {
  let best: LinkCheck | undefined;
  for (const check of checks) if (check.outcome === 'live' && check.payloadSha256 !== undefined && (best === undefined || check.checkedAt >= best.checkedAt)) best = check;
  return best;
}

/** The served maxAmount, read from the served bytes: after corrections, as the derivation saw it. */
function servedAmount(body: string): number | null {
  const value = (JSON.parse(body) as { maxAmount?: unknown }).maxAmount;
  return typeof value === 'number' ? value : null;
}

function dayString(dayNumber: number): string {
  return new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
