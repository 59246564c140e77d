/**
 * Walks every record the build serves to licensed keys (not withheld): the national records, then each
 * live city's rows in file order, derived as the build derives them (corrections applied). One city at a
 * time, so memory stays that of one city file.
 */
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import type { Corpus, ProgramRow } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { createRecordDeriver, type DerivedRecord } from './derive-record.ts';

/** One served record: its city (or `national`), the stored row and what the build derives from it. */
export interface ServedRecord {
  city: string;
  row: ProgramRow;
  record: DerivedRecord;
  /** The record as served (its Program JSON), parsed. */
  served: Record<string, unknown>;
}

/** Calls `visit` for every served record; `national: false` leaves the national layer out. */
export function visitServedRecords(corpus: Corpus, visit: (served: ServedRecord) => void, { national = true }: { national?: boolean } = {}): void {
  const derive = createRecordDeriver(corpus);
  const walk = (city: string, rows: Iterable<ProgramRow>, federalCanonical: boolean) => {
    for (const row of rows) {
      const record = derive(city, row, federalCanonical ? { federalCanonical } : undefined);
      if (record.exclusion === 'served') visit({ city, row, record, served: JSON.parse(record.body) as Record<string, unknown> });
    }
  };
  if (national) walk(NATIONAL_SLUG, corpus.national, true);
  for (const city of corpus.cities) if (city.status === 'live') walk(city.slug, readCityPrograms(corpus, city.slug), false);
}
