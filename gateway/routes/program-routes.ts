/** Program collections and detail records (spec 4.3). */
import type Router from '@koa/router';
import { NATIONAL_SLUG } from '../../build/contract/national-slug.ts';
import { licensedAccess, type ScopeRule } from '../access/licensed-access.ts';
import { ApiError } from '../http/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { parseQuery } from '../http/parse-query.ts';
import { sendJson } from '../http/send-json.ts';
import { parseProgramFilters } from '../programs/parse-program-filters.ts';
import type { RouteDependencies } from './route-dependencies.ts';

/** Scope rules of the program routes, shared with the fast path so both check a key alike. */
export const PROGRAM_SCOPES = {
  defaultCollection: { city: (ctx) => ctx.state.snapshot.defaultCity },
  nationalCollection: { paidOnly: () => true },
  cityCollection: { city: (ctx) => ctx.params.city },
  record: { city: (ctx) => ctx.params.city, paidOnly: (ctx) => ctx.params.city === NATIONAL_SLUG },
} as const satisfies Record<string, ScopeRule>;

/** Registers `/api/programs`, `/api/programs/national`, `/api/programs/{city}` and the detail route. */
export function registerProgramRoutes(router: Router<GatewayState>, deps: RouteDependencies): void {
  const { programBodies } = deps;

  router.get('/api/programs', licensedAccess(deps.access, PROGRAM_SCOPES.defaultCollection), (ctx) => {
    const { snapshot } = ctx.state;
    let body: Buffer;
    try {
      body = programBodies.collection(snapshot, snapshot.defaultCity, parseProgramFilters(parseQuery(ctx.querystring)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new ApiError(404, 'NOT_FOUND', 'the default licensed city is unavailable');
      throw error;
    }
    sendJson(ctx, body);
  });

  router.get('/api/programs/national', licensedAccess(deps.access, PROGRAM_SCOPES.nationalCollection), (ctx) => {
    sendJson(ctx, programBodies.collection(ctx.state.snapshot, NATIONAL_SLUG, parseProgramFilters(parseQuery(ctx.querystring))));
  });

  router.get('/api/programs/:city', licensedAccess(deps.access, PROGRAM_SCOPES.cityCollection), (ctx) => {
    sendJson(ctx, programBodies.collection(ctx.state.snapshot, ctx.params.city ?? '', parseProgramFilters(parseQuery(ctx.querystring))));
  });

  router.get('/api/programs/:city/:programId', licensedAccess(deps.access, PROGRAM_SCOPES.record), (ctx) => {
    sendJson(ctx, programBodies.record(ctx.state.snapshot, ctx.params.city ?? '', ctx.params.programId ?? ''));
  });
}
