/**
 * The URL a record cited on a given day: its stored `url`, or the value of its latest `url` correction
 * dated on or before that day. A review or audit row names the page of the URL cited when it was made; a
 * correction dated later changes what the record cites now (and makes the review due), not what it saw.
 */
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import type { Corpus } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/read-city-programs.ts';
import { recordKey } from '../derive/apply-corrections.ts';

/** `city/programId` and a YYYY-MM-DD day to the URL cited then; undefined for a record the corpus lacks or one without a URL. */
export type CitedUrlAt = (city: string, programId: string, day: string) => string | undefined;

/** Reads every stored row's URL once (one city file at a time) and the corpus's URL corrections. */
export function citedUrlAt(corpus: Pick<Corpus, 'national' | 'cities' | 'programFiles' | 'corrections'>): CitedUrlAt {
  const stored = new Map<string, string | null>();
  for (const row of corpus.national) stored.set(recordKey(NATIONAL_SLUG, row.id), typeof row.url === 'string' ? row.url : null);
  for (const city of corpus.cities) {
    for (const row of readCityPrograms(corpus, city.slug)) stored.set(recordKey(city.slug, row.id), typeof row.url === 'string' ? row.url : null);
  }
  const corrections = new Map<string, Array<{ date: string; value: string }>>();
  for (const correction of corpus.corrections) {
    if (correction.field !== 'url' || typeof correction.value !== 'string') continue;
    const key = recordKey(correction.city, correction.programId);
    corrections.set(key, [...(corrections.get(key) ?? []), { date: correction.date, value: correction.value }]);
  }
  return (city, programId, day) => {
    const key = recordKey(city, programId);
    if (!stored.has(key)) return undefined;
    // On one date the later line wins, as corrections are applied in file order.
    let url = stored.get(key) ?? undefined;
    let latest = '';
    for (const correction of corrections.get(key) ?? []) {
      if (correction.date <= day && correction.date >= latest) {
        url = correction.value;
        latest = correction.date;
      }
    }
    return url;
  };
}
