/**
 * The review queue's rule (find-due-reviews.ts): which served city records are due a review, and why. A
 * record is judged on its row after corrections and the exclusion policy, which is all the rule reads, so
 * no record is derived here: `links check` needs only the due records' URLs, and deriving all 568,440 of
 * them at ten times the published scale was its start-up peak (BENCHMARKS.md, "Link check at ten times the scale").
 */
import type { Corpus, LinkCheck, ProgramRow, SourceReview } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { applyCorrections, indexCorrections, recordKey } from '../derive/apply-corrections.ts';
import { createExclusionClassifier } from '../derive/classify-exclusion.ts';
import { reviewStaleDay } from '../derive/derive-freshness.ts';
import { groupBy } from '../derive/group-by.ts';
import { latestReview } from '../derive/latest-review.ts';
import { utcDayNumber } from '../derive/utc-day-number.ts';

/** Why a record is in the queue, most urgent first. */
export const DUE_REASONS = ['no-review', 'stale', 'url-corrected', 'amount-corrected', 'page-changed', 'turns-stale'] as const;

/** One of DUE_REASONS. */
export type DueReason = (typeof DUE_REASONS)[number];

/** Options of the queue. */
export interface DueReviewOptions {
  /** The day the queue is drawn up for, YYYY-MM-DD (`--at`; the manifest's asOf by default). */
  at: string;
  /** Records whose review turns stale within this many days of `at` are due as well (default 14). */
  withinDays: number;
  /**
   * Only these records (recordKey of city and program id), the others not read: `links check --url` asks
   * about the records its URLs cite, and deriving all 57,000 took 20-28 s under load.
   */
  records?: ReadonlySet<string>;
}

/** One due record, as the rule found it. */
export interface DueRecord {
  city: string;
  /** The row as stored; `url` is the one served, after corrections. */
  stored: ProgramRow;
  url: string;
  reason: DueReason;
  /** When the reason took or takes effect; null for no review. */
  date: string | null;
  review: SourceReview | undefined;
}

/** What the queue reads of a corpus. */
export type DueRecordInputs = Pick<Corpus, 'cities' | 'programFiles' | 'corrections' | 'sourceReviews' | 'linkChecks' | 'adjacentRules' | 'quarantine'>;

/**
 * Calls `visit` for each due record of a live city (or of `records`), cities in cities.ndjson order, rows
 * in file order; returns how many records it judged (the progress line's "records derived").
 */
export function visitDueRecords(corpus: DueRecordInputs, options: DueReviewOptions, visit: (record: DueRecord) => void): number {
  const reviews = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  // The derivation's own corrections index and exclusion classifier, so that served and URL are its; the
  // due rule reads the same lists.
  const corrections = indexCorrections(corpus.corrections);
  const classifyExclusion = createExclusionClassifier(corpus.adjacentRules, corpus.quarantine);
  const checksByUrl = groupBy(corpus.linkChecks, (check) => check.url);
  const atDay = utcDayNumber(options.at, 'at');
  const only = options.records;
  // A city's slug holds no '/' (corpus-schemas.ts), so a key's city is what precedes its first.
  const cities = only === undefined ? undefined : new Set([...only].map((key) => key.slice(0, key.indexOf('/'))));
  let judged = 0;
  for (const city of corpus.cities) {
    if (city.status !== 'live' || (cities !== undefined && !cities.has(city.slug))) continue;
    for (const stored of readCityPrograms(corpus, city.slug)) {
      const key = recordKey(city.slug, stored.id);
      if (only !== undefined && !only.has(key)) continue;
      judged += 1;
      const recordCorrections = corrections.get(key) ?? [];
      const row = applyCorrections(stored, recordCorrections);
      if (classifyExclusion(city.slug, row) !== 'served' || typeof row.url !== 'string') continue;
      const review = latestReview(reviews.get(key) ?? []);
      const found = dueReason(review, recordCorrections, checksByUrl.get(row.url) ?? [], atDay, options.withinDays);
      if (found !== undefined) visit({ city: city.slug, stored, url: row.url, reason: found.reason, date: found.date, review });
    }
  }
  return judged;
}

function dueReason(
  review: SourceReview | undefined, corrections: readonly Corpus['corrections'][number][], checks: readonly LinkCheck[], atDay: number, withinDays: number,
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

function dayString(dayNumber: number): string {
  return new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
}
