/**
 * Program collections and detail records (spec 4.3). Each route's body is one function, which both the
 * Koa handler and the fast path (gateway/fast-path) call, so the two cannot serve different bytes.
 */
import { NATIONAL_SLUG } from '../../build/contract/national-slug.ts';
import type { ScopeRule } from '../access/licensed-access.ts';
import { ApiError } from '../http/api-error.ts';
import { parseQuery } from '../http/parse-query.ts';
import { sendJson } from '../http/send-json.ts';
import { parseProgramFilters } from '../programs/parse-program-filters.ts';
import type { FastAnswer, RouteHandlerFactory } from './route-entry.ts';

/** Scope rules of the program routes. */
export const PROGRAM_SCOPES = {
  defaultCollection: { city: (ctx) => ctx.state.snapshot.defaultCity },
  nationalCollection: { paidOnly: () => true },
  cityCollection: { city: (ctx) => ctx.params.city },
  record: { city: (ctx) => ctx.params.city, paidOnly: (ctx) => ctx.params.city === NATIONAL_SLUG },
} as const satisfies Record<string, ScopeRule>;

/** Bodies of the program routes, by route. */
export const PROGRAM_ANSWERS = {
  defaultCollection: (bodies, snapshot, _params, filters) => bodies.collection(snapshot, snapshot.defaultCity, filters()),
  nationalCollection: (bodies, snapshot, _params, filters) => bodies.collection(snapshot, NATIONAL_SLUG, filters()),
  cityCollection: (bodies, snapshot, params, filters) => bodies.collection(snapshot, params.city ?? '', filters()),
  record: (bodies, snapshot, params) => bodies.record(snapshot, params.city ?? '', params.programId ?? ''),
} as const satisfies Record<string, FastAnswer>;

/** The Koa handler of a collection route: filters are parsed here, after metering (STYLE 26). */
function collectionHandler(answer: FastAnswer): RouteHandlerFactory {
  return (deps) => (ctx) => {
    sendJson(ctx, answer(deps.programBodies, ctx.state.snapshot, ctx.params, () => parseProgramFilters(parseQuery(ctx.querystring))));
  };
}

/** The default city's collection (the legacy route), whose 404 names the default city rather than a slug. */
export const defaultCollectionHandler: RouteHandlerFactory = (deps) => {
  const serve = collectionHandler(PROGRAM_ANSWERS.defaultCollection)(deps);
  return async (ctx, next) => {
    try {
      await serve(ctx, next);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new ApiError(404, 'NOT_FOUND', 'the default licensed city is unavailable');
      throw error;
    }
  };
};

/** The federal layer's collection. */
export const nationalCollectionHandler = collectionHandler(PROGRAM_ANSWERS.nationalCollection);

/** One live city's collection. */
export const cityCollectionHandler = collectionHandler(PROGRAM_ANSWERS.cityCollection);

/** One program record; the query string is not read. */
export const recordHandler: RouteHandlerFactory = (deps) => (ctx) => {
  sendJson(ctx, PROGRAM_ANSWERS.record(deps.programBodies, ctx.state.snapshot, ctx.params));
};
