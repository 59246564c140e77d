/**
 * Counts what dataset health (spec 2.8) reports, one record at a time, honoring the counting rule: row
 * totals, distinct stored names and locally unique programs are separate measures, never relabeled.
 */
import { CONFIDENCE_TIERS, LINK_STATUSES, type ConfidenceTier, type LinkStatus } from '../contract/vocab-enums.ts';
import type { DerivedRecord } from './derive-record.ts';

type Counts<K extends string> = Record<K, number>;

/** What the tally reads of a derived record (the build's worker threads send only this, not the bytes). */
export type TalliedRecord = Pick<DerivedRecord, 'name' | 'url' | 'exclusion' | 'freshness' | 'pageClass' | 'reviewedBy'>;

const zeroes = <K extends string>(keys: readonly K[]): Counts<K> => Object.fromEntries(keys.map((key) => [key, 0])) as Counts<K>;

/** Accumulates health figures over the live cities' records and the federal layer. */
export class HealthTally {
  totalRows = 0;
  licensedRows = 0;
  quarantinedRows = 0;
  outOfScopeRows = 0;
  federalRows = 0;
  servedFederalRows = 0;
  readonly linkHealth = zeroes<LinkStatus>(LINK_STATUSES);
  readonly licensedLinkHealth = zeroes<LinkStatus>(LINK_STATUSES);
  readonly licensedConfidence = zeroes<ConfidenceTier>(CONFIDENCE_TIERS);
  readonly licensedSourceClasses: Record<string, number> = {};
  readonly licensedDomains: Record<string, number> = {};
  readonly review = { reviewed: 0, staleReviews: 0, identityMatched: 0, amountVerified: 0, quoteVerified: 0 };
  /** Licensed records by who made their latest review (issue 38). */
  readonly reviewers = { model: 0, person: 0, unattributed: 0 };
  lastLinkCheck: string | null = null;
  #citiesWithLicensed = new Set<string>();
  /** Normalized name -> the one city it is stored in, or MANY_CITIES; for all rows and for licensed rows. */
  #names = new Map<string, string>();
  #licensedNames = new Map<string, string>();
  /**
   * Host of each URL seen lately: rows share URLs (an agency's page cited by its programs), and parsing
   * one per record was most of the tally, on the thread that writes the snapshot. Bounded (HOST_CACHE_SIZE).
   */
  #hosts = new Map<string, string | undefined>();

  /** Counts one city-program row. */
  addCityRecord(city: string, record: TalliedRecord): void {
    this.totalRows += 1;
    this.linkHealth[record.freshness.linkStatus] += 1;
    this.#noteLastCheck(record.freshness.lastChecked);
    const name = normalizeName(record.name);
    addName(this.#names, name, city);
    if (record.exclusion === 'quarantined') this.quarantinedRows += 1;
    if (record.exclusion === 'adjacent') this.outOfScopeRows += 1;
    if (record.exclusion !== 'served') return;
    this.licensedRows += 1;
    this.#citiesWithLicensed.add(city);
    addName(this.#licensedNames, name, city);
    this.licensedLinkHealth[record.freshness.linkStatus] += 1;
    this.licensedConfidence[record.freshness.confidence] += 1;
    increment(this.licensedSourceClasses, sourceClass(record));
    const host = this.#hostOf(record.url);
    if (host) increment(this.licensedDomains, host);
    const freshness = record.freshness;
    if (freshness.sourceReviewed) this.review.reviewed += 1;
    if (record.reviewedBy) this.reviewers[record.reviewedBy] += 1;
    if (freshness.sourceReviewStale) this.review.staleReviews += 1;
    if (freshness.sourceProgramVerified) this.review.identityMatched += 1;
    if (freshness.sourceAmountVerified) this.review.amountVerified += 1;
    if (freshness.sourceQuoteVerified) this.review.quoteVerified += 1;
  }

  /** Counts one record of the federal layer (not a city-program row). */
  addFederalRecord(record: Pick<DerivedRecord, 'exclusion'>): void {
    this.federalRows += 1;
    if (record.exclusion === 'served') this.servedFederalRows += 1;
  }

  get citiesCovered(): number {
    return this.#citiesWithLicensed.size;
  }

  /** Distinct stored names, and names stored in exactly one city, over all rows and licensed rows. */
  nameMeasures(): { distinct: number; locallyUnique: number; licensedDistinct: number; licensedLocallyUnique: number } {
    const unique = (names: Map<string, string>) => {
      let count = 0;
      for (const city of names.values()) if (city !== MANY_CITIES) count += 1;
      return count;
    };
    return {
      distinct: this.#names.size,
      locallyUnique: unique(this.#names),
      licensedDistinct: this.#licensedNames.size,
      licensedLocallyUnique: unique(this.#licensedNames),
    };
  }

  #hostOf(url: string | null): string | undefined {
    if (url === null) return undefined;
    if (this.#hosts.has(url)) return this.#hosts.get(url);
    if (this.#hosts.size >= HOST_CACHE_SIZE) this.#hosts.clear();
    const host = normalizedHost(url);
    this.#hosts.set(url, host);
    return host;
  }

  #noteLastCheck(date: string | null | undefined): void {
    if (date && (this.lastLinkCheck === null || date > this.lastLinkCheck)) this.lastLinkCheck = date;
  }
}

/** Source classes of licensed rows: what kind of page the cited URL is, as far as evidence shows. */
export const SOURCE_CLASSES = ['program-page', 'agency-page', 'unclassified', 'no-url'] as const;

function sourceClass(record: Pick<DerivedRecord, 'url' | 'pageClass'>): (typeof SOURCE_CLASSES)[number] {
  if (record.url === null) return 'no-url';
  if (record.pageClass === 'program') return 'program-page';
  if (record.pageClass === 'agency') return 'agency-page';
  return 'unclassified';
}

/** Lowercased host without a leading `www.`; the exact normalization licensedSourceDomainCounts uses. */
export function normalizedHost(url: string | null): string | undefined {
  if (url === null) return undefined;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** The name normalization distinct and locally unique program counts use. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** How many URLs' hosts the tally keeps: enough for a city's worth of rows many times over, bounded at any scale. */
const HOST_CACHE_SIZE = 50_000;

/**
 * Marks a name stored in more than one city. Not a slug: slugs are lowercase letters, digits and hyphens
 * (corpus-schemas.ts), so no city is called this.
 */
const MANY_CITIES = '\u0000many';

/** Notes that normalized `name` is stored in `city`: only whether it is in one city or several is counted. */
function addName(names: Map<string, string>, name: string, city: string): void {
  const seen = names.get(name);
  if (seen === undefined) names.set(name, city);
  else if (seen !== city && seen !== MANY_CITIES) names.set(name, MANY_CITIES);
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
