/**
 * Program collections and detail records (spec 4.3). Bodies are precomputed or cached per revision
 * (gateway/programs/program-bodies.ts), so the fast path answers these routes ahead of Koa with the same
 * handlers. Filters are parsed by the handler, after metering in the Koa order; the fast path parses them
 * first, bounded, and remembers each parsed query text.
 */
import { NATIONAL_SLUG } from '../../build/contract/national-slug.ts';
import type { ScopeRule } from '../access/licensed-access.ts';
import { ApiError } from '../http/api-error.ts';
import { parseQuery } from '../http/parse-query.ts';
import { jsonReply } from '../pipeline/json-reply.ts';
import type { RouteRequest } from '../pipeline/route-exchange.ts';
import { LRUCache } from 'lru-cache';
import { ENTRY_OVERHEAD_BYTES } from '../programs/cache-budget.ts';
import { parseProgramFilters, type ProgramFilters } from '../programs/parse-program-filters.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

/** Scope rules of the program routes. */
export const PROGRAM_SCOPES = {
  defaultCollection: { city: (request) => request.snapshot.defaultCity },
  nationalCollection: { paidOnly: () => true },
  cityCollection: { city: (request) => request.params.city },
  record: { city: (request) => request.params.city, paidOnly: (request) => request.params.city === NATIONAL_SLUG },
} as const satisfies Record<string, ScopeRule>;

const NO_FILTERS: ProgramFilters = Object.freeze({});

/**
 * Query text -> its parsed filters: a pure function, so a repeated query (every filtered cache hit) skips
 * URLSearchParams and the filter checks. Only queries that parse are remembered; a bad one throws its 400.
 */
function createFilterReader(): (querystring: string) => ProgramFilters {
  const parsed = new LRUCache<string, ProgramFilters>({ maxSize: 1024 * 1024, sizeCalculation: (_filters, text) => text.length + ENTRY_OVERHEAD_BYTES });
  return (text) => {
    if (text === '') return NO_FILTERS;
    let filters = parsed.get(text);
    if (filters === undefined) {
      filters = Object.freeze(parseProgramFilters(parseQuery(text)));
      parsed.set(text, filters);
    }
    return filters;
  };
}

/** A collection route's handler, given how it finds its city. */
function collectionHandler(cityOf: (request: RouteRequest) => string): RouteHandlerFactory {
  return (deps) => {
    const filtersOf = createFilterReader();
    return (request) => jsonReply(deps.programBodies.collection(request.snapshot, cityOf(request), filtersOf(request.querystring)));
  };
}

/** The default city's collection (the legacy route), whose 404 names the default city rather than a slug. */
export const defaultCollectionHandler: RouteHandlerFactory = (deps) => {
  const serve = collectionHandler((request) => request.snapshot.defaultCity)(deps);
  return (request) => {
    try {
      return serve(request);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new ApiError(404, 'NOT_FOUND', 'the default licensed city is unavailable');
      throw error;
    }
  };
};

/** The federal layer's collection. */
export const nationalCollectionHandler = collectionHandler(() => NATIONAL_SLUG);

/** One live city's collection. */
export const cityCollectionHandler = collectionHandler((request) => request.params.city ?? '');

/** One program record; the query string is not read. */
export const recordHandler: RouteHandlerFactory = (deps) => (request) =>
  jsonReply(deps.programBodies.record(request.snapshot, request.params.city ?? '', request.params.programId ?? ''));
