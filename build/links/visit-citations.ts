/** Walks every served citation: each program row of a live city, and each national record, with its URL. */
import type { Corpus, ProgramRow } from '../corpus/corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { applyCorrections, indexCorrections, recordKey } from '../derive/apply-corrections.ts';

/** One record citing one URL. */
export interface Citation {
  /** A live city's slug, or `national`. */
  city: string;
  programId: string;
  url: string;
  /** The record's served `maxAmount`, after corrections (the report sets it beside what the page states). */
  maxAmount: number | null | undefined;
}

/**
 * Calls `visit` for every record that cites a URL: the national records first, then each live city in
 * cities.ndjson order, rows in file order. The URL is the one the build serves, after corrections (a
 * correction can replace it). Cities are read one at a time, so memory stays that of one city file.
 */
export function visitCitations(corpus: Pick<Corpus, 'national' | 'cities' | 'programFiles' | 'corrections'>, visit: (citation: Citation) => void): void {
  const corrections = indexCorrections(corpus.corrections);
  const cite = (city: string, rows: Iterable<ProgramRow>) => {
    for (const stored of rows) {
      const row = applyCorrections(stored, corrections.get(recordKey(city, stored.id)) ?? []);
      if (typeof row.url === 'string') visit({ city, programId: row.id, url: row.url, maxAmount: row.maxAmount });
    }
  };
  cite(NATIONAL_SLUG, corpus.national);
  for (const city of corpus.cities) {
    if (city.status === 'live') cite(city.slug, readCityPrograms(corpus, city.slug));
  }
}
