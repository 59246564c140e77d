/**
 * The evidence, corrections and quarantine entries that apply to a few cities, cut from the whole corpus's:
 * what a build worker is sent with each batch of cities (city-worker-pool.ts), so that no worker holds its
 * own copy of all of it (two copies took the 570k-row build over its memory budget). Derivation reads
 * reviews, quote checks, corrections and quarantine entries by (city, program id) and link checks by the record's URL,
 * so a batch's share is the entries of its cities and the checks of the URLs its records can carry: every
 * URL in their rows, and every URL a correction can set. Order within each kept list is the corpus's, so
 * derivation sees exactly what it would see given everything.
 */
import type { Corpus, LinkCheck } from '../corpus/corpus-types.ts';
import type { ProgramRow } from '../corpus/corpus-types.ts';
import { groupBy } from '../derive/group-by.ts';

/** The parts of a corpus that apply to particular records. */
export type CityEvidence = Pick<Corpus, 'linkChecks' | 'sourceReviews' | 'quoteChecks' | 'corrections' | 'quarantine'>;

/** The corpus's evidence indexed by city and URL, cut into batches on demand. */
export interface EvidenceIndex {
  /** Records the URLs of a city's rows; a city's share is known only once they are. */
  noteUrls(city: string, urls: readonly string[]): void;
  hasUrls(city: string): boolean;
  /** The evidence of `cities`, each of which must have its URLs noted. */
  forCities(cities: readonly string[]): CityEvidence;
}

/** The distinct URLs of `rows`. */
export function rowUrls(rows: readonly ProgramRow[]): string[] {
  return [...new Set(rows.flatMap((row) => (typeof row.url === 'string' ? [row.url] : [])))];
}

/** Indexes `corpus`'s evidence; the index holds references to the corpus's entries, not copies. */
export function indexEvidence(corpus: CityEvidence): EvidenceIndex {
  const checksByUrl = groupBy(corpus.linkChecks, (check) => check.url);
  const reviews = groupBy(corpus.sourceReviews, (review) => review.city);
  const quoteChecks = groupBy(corpus.quoteChecks, (check) => check.city);
  const corrections = groupBy(corpus.corrections, (correction) => correction.city);
  const quarantine = groupBy(corpus.quarantine, (entry) => entry.city);
  const cityUrls = new Map<string, readonly string[]>();
  return {
    noteUrls(city, urls) {
      // Only URLs that have checks matter; the rest need not be kept.
      cityUrls.set(city, urls.filter((url) => checksByUrl.has(url)));
    },
    hasUrls: (city) => cityUrls.has(city),
    forCities(cities) {
      const urls = new Set<string>();
      for (const city of cities) {
        const noted = cityUrls.get(city);
        if (noted === undefined) throw new Error(`evidence of city ${city} asked for before its URLs were noted`);
        for (const url of noted) urls.add(url);
        for (const correction of corrections.get(city) ?? []) if (correction.field === 'url' && typeof correction.value === 'string') urls.add(correction.value);
      }
      const wanted = new Set(cities);
      const linkChecks: LinkCheck[] = [];
      // In corpus order: the index of each URL's checks keeps it, and so does walking the corpus.
      for (const url of urls) linkChecks.push(...(checksByUrl.get(url) ?? []));
      return {
        linkChecks,
        sourceReviews: cities.flatMap((city) => reviews.get(city) ?? []),
        quoteChecks: cities.flatMap((city) => quoteChecks.get(city) ?? []),
        corrections: cities.flatMap((city) => corrections.get(city) ?? []),
        quarantine: [...wanted].flatMap((city) => quarantine.get(city) ?? []),
      };
    },
  };
}
