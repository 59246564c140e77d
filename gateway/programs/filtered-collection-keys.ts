/**
 * The cache key of a filtered collection, and the filters it normalizes to, made once per filters object,
 * city and revision: a filtered cache hit spread the filters, resolved the project alias and wrote a JSON
 * array (the revision, the city and six filter slots, 100-odd characters) per request, then hashed it.
 * The filters of a query text are one frozen object per text (routes/program-routes.ts remembers them),
 * so a repeated query finds its key here by identity.
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

/** Makes a filtered collection's key; the same answer for the same filters object, city and revision. */
export type FilteredCollectionKeys = (snapshot: Snapshot, city: string, filters: ProgramFilters) => FilteredCollectionKey;

/**
 * Remembers the keys of each filters object by city, for the revision it was last asked in (another revision,
 * whose aliases may differ, makes them again). Held weakly by the filters object: a filters object the
 * query memo dropped takes its keys with it. At most `maxCities` cities per filters object, then it starts over.
 */
export function createFilteredCollectionKeys(maxCities = 4096): FilteredCollectionKeys {
  const remembered = new WeakMap<ProgramFilters, { revision: string; byCity: Map<string, FilteredCollectionKey> }>();
  return (snapshot, city, filters) => {
    let ofFilters = remembered.get(filters);
    if (ofFilters === undefined || ofFilters.revision !== snapshot.revision) {
      ofFilters = { revision: snapshot.revision, byCity: new Map() };
      remembered.set(filters, ofFilters);
    }
    let made = ofFilters.byCity.get(city);
    if (made === undefined) {
      made = filteredCollectionKey(snapshot, city, filters);
      if (ofFilters.byCity.size >= maxCities) ofFilters.byCity.clear();
      ofFilters.byCity.set(city, made);
    }
    return made;
  };
}

/** The key of `filters` on `city` in `snapshot`, made afresh. */
export function filteredCollectionKey(snapshot: Snapshot, city: string, filters: ProgramFilters): FilteredCollectionKey {
  const project = filters.project === undefined ? undefined : (snapshot.projectAliases.get(filters.project.toLowerCase()) ?? null);
  const normalized: ProgramFilters = Object.freeze({ ...filters, ...(project === undefined ? {} : { project: project ?? '' }) });
  // JSON keeps every value apart (none can pose as two), and an unknown project (false) apart from no
  // project filter (null): as one joined string they shared a slot, so `special=x` could be answered
  // with the empty collection cached for `special=x&project=<unknown>`, or the other way round.
  const key = JSON.stringify([snapshot.revision, city, ...FILTER_NAMES.map((name) => (name === 'project' && project === null ? false : (normalized[name] ?? null)))]);
  return Object.freeze({ key, normalized, project });
}
