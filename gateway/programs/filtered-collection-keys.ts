/**
 * The cache key of a filtered collection, and the filters it normalizes to, made once per filters object,
 * city and revision for the collections found in the cache: a filtered cache hit spread the filters,
 * resolved the project alias and wrote a JSON array (the revision, the city and six filter slots, 100-odd
 * characters) per request, then hashed it.
 * The filters of a query text are one frozen object per text (routes/program-routes.ts remembers them),
 * so a repeated query finds its key here by identity; filters passed here must not change afterwards.
 */
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import { FILTER_NAMES, type ProgramFilters } from './parse-program-filters.ts';

/** What a filtered collection is looked up and assembled by. */
export interface FilteredCollectionKey {
  /** The collection cache's key: revision, city and the normalized filters, as JSON. */
  readonly key: string;
  /** The filters with `project` resolved through the revision's aliases. */
  readonly normalized: ProgramFilters;
  /** The resolved project: undefined without a project filter, null when the value names no project (it matches nothing). */
  readonly project: string | null | undefined;
}

/**
 * The keys of filtered collections found in the cache, for the last revision asked. `find` answers a key
 * remembered for the same filters object, city and revision, else undefined; `remember` keeps one. The
 * caller (filter-collection.ts) remembers only keys of bodies the cache held: a miss (a query never asked before, most of them asked
 * once) would pay for a map entry it never reads again, which measured slower than the key it saves.
 */
export interface FilteredCollectionKeys {
  find(snapshot: Snapshot, city: string, filters: ProgramFilters): FilteredCollectionKey | undefined;
  remember(snapshot: Snapshot, city: string, filters: ProgramFilters, made: FilteredCollectionKey): void;
}

/**
 * Remembers keys by city and filters object, up to `maxKeys` (then it starts over); another revision,
 * whose aliases may differ, starts over at once. Plain maps, not weak ones: a weak map keyed by objects
 * that die young costs every scavenge its ephemeron pass (BENCHMARKS.md, issue 25 goal 1, fourth round).
 */
export function createFilteredCollectionKeys(maxKeys = 1024): FilteredCollectionKeys {
  let revision: string | undefined;
  let byCity = new Map<string, Map<ProgramFilters, FilteredCollectionKey>>();
  let count = 0;
  return {
    find(snapshot, city, filters) {
      return snapshot.revision === revision ? byCity.get(city)?.get(filters) : undefined;
    },
    remember(snapshot, city, filters, made) {
      if (snapshot.revision !== revision || count >= maxKeys) {
        revision = snapshot.revision;
        byCity = new Map();
        count = 0;
      }
      let ofCity = byCity.get(city);
      if (ofCity === undefined) {
        ofCity = new Map();
        byCity.set(city, ofCity);
      }
      if (!ofCity.has(filters)) count += 1;
      ofCity.set(filters, made);
    },
  };
}

/** The key of `filters` on `city` in `snapshot`, made afresh. */
export function filteredCollectionKey(snapshot: Snapshot, city: string, filters: ProgramFilters): FilteredCollectionKey {
  const project = filters.project === undefined ? undefined : (snapshot.projectAliases.get(filters.project.toLowerCase()) ?? null);
  const normalized: ProgramFilters = { ...filters, ...(project === undefined ? {} : { project: project ?? '' }) };
  // JSON keeps every value apart (none can pose as two), and an unknown project (false) apart from no
  // project filter (null): as one joined string they shared a slot, so `special=x` could be answered
  // with the empty collection cached for `special=x&project=<unknown>`, or the other way round.
  const key = JSON.stringify([snapshot.revision, city, ...FILTER_NAMES.map((name) => (name === 'project' && project === null ? false : (normalized[name] ?? null)))]);
  return { key, normalized, project };
}
