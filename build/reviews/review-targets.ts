/** The served records a person's worksheet may name: their cited URL, name and served `maxAmount`. */
import type { Corpus } from '../corpus/corpus-types.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { visitServedRecords } from '../derive/visit-served-records.ts';

/** One served record with a cited URL. */
export interface ReviewTarget {
  city: string;
  programId: string;
  name: string;
  url: string;
  maxAmount: number | null;
}

/** Every served record that cites a URL, by recordKey, in visit order (national first, then cities). */
export function readReviewTargets(corpus: Corpus): Map<string, ReviewTarget> {
  const targets = new Map<string, ReviewTarget>();
  visitServedRecords(corpus, ({ city, record, served }) => {
    if (record.url === null) return;
    const maxAmount = typeof served.maxAmount === 'number' ? served.maxAmount : null;
    targets.set(recordKey(city, record.id), { city, programId: record.id, name: record.name, url: record.url, maxAmount });
  });
  return targets;
}
