/**
 * Filtered program collections, assembled from stored per-record bytes (no record is re-serialized)
 * and kept in a bounded cache keyed by revision, city and normalized filters.
 */
import { LRUCache } from 'lru-cache';
import { programListBytes, SCOPE_LICENSED_CITY, SCOPE_NATIONAL } from '../../build/contract/program-list-bytes.ts';
import type { RecordFacets, Snapshot, StoredRecord } from '../snapshot/open-snapshot.ts';
import { FILTER_NAMES, type ProgramFilters } from './parse-program-filters.ts';

/** Bounds of the two caches; defaults suit the 200 MB gateway budget at ten times the published scale. */
export interface CollectionCacheOptions {
  /** Bytes of assembled filtered collections to keep. Default 64 MiB. */
  maxCollectionBytes?: number;
  /** Cities whose record lists (facets parsed) stay in memory. Default 2,000. */
  maxCities?: number;
}

/** Builds filtered collections for one gateway process. */
export function createCollectionFilter(options: CollectionCacheOptions = {}) {
  const collections = new LRUCache<string, Buffer>({
    maxSize: options.maxCollectionBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (body) => Math.max(1, body.length),
  });
  const records = new LRUCache<string, StoredRecord[]>({ max: options.maxCities ?? 2000 });

  return function filteredCollection(snapshot: Snapshot, city: string, filters: ProgramFilters): Buffer {
    const project = filters.project === undefined ? undefined : (snapshot.projectAliases.get(filters.project.toLowerCase()) ?? null);
    const normalized = { ...filters, ...(project === undefined ? {} : { project: project ?? '' }) };
    const key = `${snapshot.revision}\u0000${city}\u0000${FILTER_NAMES.map((name) => normalized[name] ?? '').join('\u0000')}`;
    const cached = collections.get(key);
    if (cached) return cached;

    const recordsKey = `${snapshot.revision}\u0000${city}`;
    let cityRecords = records.get(recordsKey);
    if (!cityRecords) {
      cityRecords = snapshot.cityRecords(city);
      records.set(recordsKey, cityRecords);
    }
    const bodies: Buffer[] = [];
    let excluded = 0;
    // An unknown project value resolves to null: it matches nothing, a valid empty collection.
    if (project !== null) {
      for (const record of cityRecords) {
        if (!matches(record.facets, normalized)) continue;
        if (record.withheld === 'served') bodies.push(record.body);
        else excluded += 1;
      }
    }
    const body = programListBytes({
      city,
      datasetRevision: snapshot.revision,
      excludedBySafetyPolicy: excluded,
      exclusionPolicyVersion: snapshot.exclusionPolicyVersion,
      scope: city === 'national' ? SCOPE_NATIONAL : SCOPE_LICENSED_CITY,
    }, bodies);
    collections.set(key, body);
    return body;
  };
}

/** Logical AND of the set filters; each is plain membership because the build decided every rule. */
function matches(facets: RecordFacets, filters: ProgramFilters): boolean {
  if (filters.type !== undefined && !facets.type.includes(filters.type)) return false;
  if (filters.income !== undefined && !facets.income.includes(filters.income)) return false;
  if (filters.project !== undefined && !facets.project.includes(filters.project)) return false;
  if (filters.special !== undefined && !facets.special.includes(filters.special)) return false;
  if (filters.category !== undefined && facets.category !== filters.category) return false;
  if (filters.status !== undefined && facets.status !== filters.status) return false;
  return true;
}

/** The filtered-collection function createCollectionFilter returns. */
export type FilteredCollection = ReturnType<typeof createCollectionFilter>;
