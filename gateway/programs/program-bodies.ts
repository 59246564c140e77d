/**
 * The response bytes of the program routes (spec 4.3): a city's collection, unfiltered or filtered, and
 * one detail record, each read from the pinned snapshot and remembered by revision. One instance serves
 * both the Koa routes and the fast path, so the two share every cache.
 */
import { LRUCache } from 'lru-cache';
import { NATIONAL_SLUG } from '../../build/contract/national-slug.ts';
import { ApiError } from '../http/api-error.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import { ENTRY_OVERHEAD_BYTES } from './cache-budget.ts';
import type { FilteredCollection } from './filter-collection.ts';
import { hasNoFilters, type ProgramFilters } from './parse-program-filters.ts';
import { createRevisionKeys } from './revision-keys.ts';

// One message for every missing, withheld or quarantined record: the route is no oracle (spec 4.3).
const recordNotFound = () => new ApiError(404, 'NOT_FOUND', 'program not found in the licensed live scope');
const cityNotFound = () => new ApiError(404, 'NOT_FOUND', 'city not found in the licensed live scope');

/** Bounds of the caches this module keeps, in bytes (the filtered caches have their own, in filter-collection.ts). */
export interface ProgramBodiesOptions {
  unfilteredBytes: number;
  recordBytes: number;
}

/** Finds program bodies; every miss is thrown as the spec's 404. */
export interface ProgramBodies {
  /** A city's collection (`national` for the national layer) under parsed filters (parse-program-filters.ts). */
  collection(snapshot: Snapshot, city: string, filters: ProgramFilters): Buffer;
  /** One served record of a city; withheld and unknown records are alike 404. */
  record(snapshot: Snapshot, city: string, programId: string): Buffer;
  /** Empties every cache (the filtered ones too): called when a served file fails its check. */
  clear(): void;
}

/** Creates the program bodies of one gateway process. */
export function createProgramBodies(filteredCollection: FilteredCollection, options: ProgramBodiesOptions): ProgramBodies {
  // Reading a collection from the snapshot copies the whole blob out of SQLite on every request (the top
  // gateway frame in the bench profile, plus the GC of that copy). A snapshot never changes, so bytes
  // cached for a revision are the ones the snapshot would return, and the city was live in that revision.
  const unfiltered = new LRUCache<string, Buffer>({ maxSize: options.unfilteredBytes, sizeCalculation: (body, key) => body.length + key.length + ENTRY_OVERHEAD_BYTES });
  // Served records only; a withheld or unknown id is read again each time, which costs only that client.
  const records = new LRUCache<string, Buffer>({ maxSize: options.recordBytes, sizeCalculation: (body, key) => body.length + key.length + ENTRY_OVERHEAD_BYTES });
  // Whether a slug is a live city of a revision, remembered: a filtered cache hit then reads no SQLite at all.
  const liveCities = new LRUCache<string, boolean>({ max: 50_000 });
  const keys = createRevisionKeys();
  const isLiveCity = (snapshot: Snapshot, city: string) => {
    const key = keys.city(snapshot.revision, city);
    let live = liveCities.get(key);
    if (live === undefined) {
      live = snapshot.city(city) !== undefined;
      liveCities.set(key, live);
    }
    return live;
  };

  // The unfiltered collection of a city the caller knows is in the snapshot, through the cache: it also
  // holds every served record's bytes (snapshot format 4), so the detail route reads it too.
  const unfilteredBody = (snapshot: Snapshot, city: string): Buffer | undefined => {
    const key = keys.city(snapshot.revision, city);
    const cached = unfiltered.get(key);
    if (cached) return cached;
    const stored = snapshot.collection(city);
    if (stored) unfiltered.set(key, stored.body);
    return stored?.body;
  };

  return {
    collection(snapshot, city, filters) {
      if (hasNoFilters(filters)) {
        const cached = unfiltered.get(keys.city(snapshot.revision, city));
        if (cached) return cached;
        if (city !== NATIONAL_SLUG && !isLiveCity(snapshot, city)) throw cityNotFound();
        const body = unfilteredBody(snapshot, city);
        if (!body) throw cityNotFound();
        return body;
      }
      if (city !== NATIONAL_SLUG && !isLiveCity(snapshot, city)) throw cityNotFound();
      return filteredCollection(snapshot, city, filters);
    },
    record(snapshot, city, programId) {
      const key = keys.record(snapshot.revision, city, programId);
      const cached = records.get(key);
      if (cached) return cached;
      // Withheld records are not in what servedRecordPlace reads: they miss exactly as unknown ids do.
      const place = snapshot.servedRecordPlace(city, programId);
      if (place === undefined) throw recordNotFound();
      // The record's bytes are a slice of its collection (snapshot format 4), cached for the collection
      // route and for the other records of the city. Copied out, so the record cache, which counts only
      // the record's bytes, never keeps a whole collection alive.
      const collection = unfilteredBody(snapshot, city);
      if (collection === undefined || place.offset + place.length > collection.length) throw new Error(`snapshot ${snapshot.revision}: record bytes of ${city} lie outside its collection`);
      const body = Buffer.from(collection.subarray(place.offset, place.offset + place.length));
      records.set(key, body);
      return body;
    },
    clear() {
      unfiltered.clear();
      records.clear();
      liveCities.clear();
      filteredCollection.clear();
    },
  };
}
