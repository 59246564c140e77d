/** The licensed city index and counts (spec 4.3); trial keys see only their allowlist. */
import { parseQuery } from '../http/parse-query.ts';
import { jsonReply } from '../pipeline/json-reply.ts';
import type { RouteRequest } from '../pipeline/route-exchange.ts';
import { DOCUMENT } from '../../build/snapshot/snapshot-format.ts';
import { ApiError } from '../http/api-error.ts';
import type { RouteHandlerFactory } from './route-entry.ts';
import type { Snapshot, StoredCity } from '../snapshot/open-snapshot.ts';

/**
 * `status` is the exact registry status; the licensed scope holds only `live` cities, so any other value
 * yields a valid empty index rather than an error (spec 4.3: unknown filter values give empty results).
 */
function isLiveScope(status: unknown): boolean {
  if (Array.isArray(status)) throw new ApiError(400, 'INVALID_PARAMETER', 'query parameter status must be given at most once');
  return status === undefined || status === '' || status === 'live';
}

/**
 * The live cities a trial key may see, in index order (slug order), looked up one by one: a trial holds at
 * most five slugs, so this never reads the whole city table (22,000 rows at ten times the published scale).
 */
function allowedCities(snapshot: Snapshot, slugs: readonly string[]): StoredCity[] {
  return [...new Set(slugs)].sort().flatMap((slug) => snapshot.city(slug) ?? []);
}

/** The stored full-scope document for paid keys, or the allowlist (empty outside the live scope) for trials. */
function citiesInScope(request: RouteRequest, fullDocument: string): { full: Buffer | string } | { cities: StoredCity[] } {
  const { snapshot, key } = request;
  const live = isLiveScope(parseQuery(request.querystring).status);
  if (live && key?.cities === null) return { full: snapshot.document(fullDocument)?.body ?? '' };
  return { cities: allowedCities(snapshot, live ? (key?.cities ?? []) : []) };
}

/** The licensed city index. */
export const cityIndexHandler: RouteHandlerFactory = () => (request) => {
  const result = citiesInScope(request, DOCUMENT.cities);
  if ('full' in result) return jsonReply(result.full);
  const bodies = result.cities.map((city) => city.cityBody);
  return jsonReply(`{"cities":[${bodies.join(',')}],"count":${bodies.length},"datasetRevision":"${request.snapshot.revision}"}`);
};

/** The licensed cities with their program counts. */
export const cityCountsHandler: RouteHandlerFactory = () => (request) => {
  const result = citiesInScope(request, DOCUMENT.cityCounts);
  if ('full' in result) return jsonReply(result.full);
  const total = result.cities.reduce((sum, city) => sum + city.programCount, 0);
  return jsonReply(`{"cities":[${result.cities.map((city) => city.countsBody).join(',')}],"count":${result.cities.length},"datasetRevision":"${request.snapshot.revision}","totalPrograms":${total}}`);
};
