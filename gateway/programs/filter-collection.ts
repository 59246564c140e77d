/**
 * Filtered program collections, assembled from stored per-record bytes (no record is re-serialized)
 * and kept in a bounded cache keyed by revision, city and normalized filters.
 */
import { LRUCache } from 'lru-cache';
import { programListBytes, SCOPE_LICENSED_CITY, SCOPE_NATIONAL } from '../../build/contract/program-list-bytes.ts';
import type { RecordFacets, Snapshot, StoredRecord } from '../snapshot/open-snapshot.ts';
import { ENTRY_OVERHEAD_BYTES } from './cache-budget.ts';
import { createFilteredCollectionKeys, filteredCollectionKey } from './filtered-collection-keys.ts';
import type { ProgramFilters } from './parse-program-filters.ts';

// A stored record's parsed facets and object: a few short arrays of vocabulary strings.
const RECORD_FACETS_BYTES = 400;

/** Bounds of the two caches, in bytes (gateway/programs/cache-budget.ts). */
export interface CollectionCacheOptions {
  /** Assembled filtered collections. */
  filteredBytes: number;
  /** Per-city record lists (bodies and parsed facets). */
  recordListBytes: number;
}

/** Builds filtered collections for one gateway process. */
export function createCollectionFilter(options: CollectionCacheOptions) {
  const collections = new LRUCache<string, Buffer>({
    maxSize: options.filteredBytes,
    sizeCalculation: (body, key) => body.length + key.length + ENTRY_OVERHEAD_BYTES,
  });
  // Bounded by bytes, not cities: at ten times the published scale a city's list is about 400 KB.
  const records = new LRUCache<string, StoredRecord[]>({
    maxSize: options.recordListBytes,
    sizeCalculation: (list) => list.reduce((bytes, record) => bytes + (record.withheld === 'served' ? record.body.length : 0) + RECORD_FACETS_BYTES, ENTRY_OVERHEAD_BYTES),
  });

  const keys = createFilteredCollectionKeys();

  const filteredCollection = (snapshot: Snapshot, city: string, filters: ProgramFilters): Buffer => {
    const remembered = keys.find(snapshot, city, filters);
    const made = remembered ?? filteredCollectionKey(snapshot, city, filters);
    const { key, normalized, project } = made;
    const cached = collections.get(key);
    if (cached) {
      // A hit is likely asked again (a polled query): its key is made once from now on.
      if (remembered === undefined) keys.remember(snapshot, city, filters, made);
      return cached;
    }

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
      links: snapshot.envelopeLinks,
      scope: city === 'national' ? SCOPE_NATIONAL : SCOPE_LICENSED_CITY,
    }, bodies);
    collections.set(key, body);
    return body;
  };
  // Emptied when a served file fails its check: what was cached from it is never served again.
  const clear = () => {
    collections.clear();
    records.clear();
  };
  return Object.assign(filteredCollection, { clear });
}

/**
 * Logical AND of the set filters; each is plain membership because the build decided every rule (a null
 * `special` facet is an unrestricted record, which matches every population).
 */
function matches(facets: RecordFacets, filters: ProgramFilters): boolean {
  if (filters.type !== undefined && !facets.type.includes(filters.type)) return false;
  if (filters.income !== undefined && !facets.income.includes(filters.income)) return false;
  if (filters.project !== undefined && !facets.project.includes(filters.project)) return false;
  if (filters.special !== undefined && facets.special !== null && !facets.special.includes(filters.special)) return false;
  if (filters.category !== undefined && facets.category !== filters.category) return false;
  if (filters.status !== undefined && facets.status !== filters.status) return false;
  return true;
}

/** The filtered-collection function createCollectionFilter returns. */
export type FilteredCollection = ReturnType<typeof createCollectionFilter>;
