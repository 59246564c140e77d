/** The served records that cite each of a set of URLs, for the run summary and the report. */
import { visitCitations } from './visit-citations.ts';
import type { Corpus } from '../corpus/corpus-types.ts';

/** A record, named the way corrections and evidence name it. */
export interface CitingRecord {
  city: string;
  programId: string;
}

/** The parts of a corpus that say which records cite which URL (what visitCitations reads). */
export type CitingCorpus = Pick<Corpus, 'national' | 'cities' | 'programFiles' | 'corrections'>;

/** Maps each URL of `urls` that a served record cites to those records, in visitCitations order. */
export function findCitations(corpus: CitingCorpus, urls: ReadonlySet<string>): Map<string, CitingRecord[]> {
  const found = new Map<string, CitingRecord[]>();
  if (urls.size === 0) return found;
  visitCitations(corpus, ({ city, programId, url }) => {
    if (!urls.has(url)) return;
    const list = found.get(url);
    if (list) list.push({ city, programId });
    else found.set(url, [{ city, programId }]);
  });
  return found;
}
