/** Finds what changed between a previously published snapshot and the corpus as it stands now. */
import type Database from 'better-sqlite3';
import type { Corpus } from '../corpus/corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { readCityPrograms } from '../corpus/load-corpus.ts';
import { createRecordDeriver } from '../derive/derive-record.ts';
import { liveCitySlugs } from '../revision/compute-revision.ts';
import { diffRecord, type DetectedChange } from './diff-record.ts';
import { readRecordFacts, type RecordFacts } from './record-facts.ts';

/**
 * Compares records per (city, id) over the live cities of either side, served and withheld rows alike
 * (the feed decides visibility at build time), deriving the current side exactly as the build does: a
 * city that stopped being live yields program-removed for each of its rows, one that went live program-added.
 * The federal layer is left out: change events name city slugs. A city the previous snapshot served
 * but cities.ndjson no longer lists is skipped, since the log may only name known cities. Cities are
 * compared one at a time so memory stays bounded by the largest city.
 */
export function detectChanges(
  previous: Database.Database,
  corpus: Corpus,
  onProgress: (message: string) => void = () => {},
): DetectedChange[] {
  const stored = previousRecordQueries(previous);
  const previousCities = previous.prepare(stored.cities).pluck().all({ national: NATIONAL_SLUG }) as string[];
  const liveNow = new Set(liveCitySlugs(corpus));
  const knownCities = new Set(corpus.cities.map((city) => city.slug));
  const selectPrevious = previous.prepare(stored.records);
  const derive = createRecordDeriver(corpus);
  const changes: DetectedChange[] = [];
  let compared = 0;
  for (const city of [...new Set([...previousCities, ...liveNow])].sort()) {
    if (!knownCities.has(city)) {
      onProgress(`changes: skipped city ${JSON.stringify(city)}: the previous snapshot serves it but cities.ndjson does not list it`);
      continue;
    }
    const before = new Map<string, RecordFacts>();
    for (const row of selectPrevious.all({ city }) as Array<{ id: string; body: Uint8Array }>) {
      before.set(row.id, readRecordFacts(row.body, `previous snapshot ${city}/${row.id}`));
    }
    const after = new Map<string, RecordFacts>();
    if (liveNow.has(city)) {
      for (const row of readCityPrograms(corpus, city)) {
        after.set(row.id, readRecordFacts(derive(city, row).body, `corpus ${city}/${row.id}`));
      }
    }
    for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      changes.push(...diffRecord(city, id, before.get(id), after.get(id)));
      compared += 1;
    }
  }
  // The count of changes is the command's to report: some may already be in the change log.
  onProgress(`changes: compared ${compared} ${compared === 1 ? 'record' : 'records'} with the previous snapshot`);
  return changes;
}

/**
 * The SQL reading every record (served and withheld) of the previous snapshot, by its format version:
 * format 2 held all in `programs`; format 3 keeps withheld ones in `withheld_programs`; format 4 keeps a
 * served record's bytes only in its city's collection document, where `programs` says they are. The city
 * list leaves out the national layer.
 */
function previousRecordQueries(previous: Database.Database): { cities: string; records: string } {
  const version = previous.prepare("SELECT value FROM meta WHERE key = 'format_version'").pluck().get();
  if (version === '2') {
    return { cities: 'SELECT DISTINCT city FROM programs WHERE city <> :national ORDER BY city', records: 'SELECT id, body FROM programs WHERE city = :city' };
  }
  const cities = 'SELECT city FROM programs WHERE city <> :national UNION SELECT city FROM withheld_programs WHERE city <> :national ORDER BY city';
  if (version === '3') {
    return { cities, records: 'SELECT id, body FROM programs WHERE city = :city UNION ALL SELECT id, body FROM withheld_programs WHERE city = :city' };
  }
  return {
    cities,
    records: "SELECT p.id, substr(d.body, p.body_offset + 1, p.body_length) AS body FROM programs p JOIN documents d ON d.name = 'collection:' || p.city WHERE p.city = :city"
      + ' UNION ALL SELECT id, body FROM withheld_programs WHERE city = :city',
  };
}
