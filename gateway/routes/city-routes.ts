/** The licensed city index and counts (spec 4.3); trial keys see only their allowlist. */
import type Router from '@koa/router';
import { licensedAccess } from '../access/licensed-access.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { sendJson } from '../http/send-json.ts';
import { DOCUMENT } from '../../build/snapshot/snapshot-format.ts';
import { ApiError } from '../http/api-error.ts';
import type { RouteDependencies } from './route-dependencies.ts';

/**
 * `status` is the exact registry status; the licensed scope holds only `live` cities, so any other value
 * yields a valid empty index rather than an error (spec 4.3: unknown filter values give empty results).
 */
function isLiveScope(status: unknown): boolean {
  if (Array.isArray(status)) throw new ApiError(400, 'INVALID_PARAMETER', 'query parameter status must be given at most once');
  return status === undefined || status === '' || status === 'live';
}

/** Registers `/api/cities` and `/api/cities/counts`. */
export function registerCityRoutes(router: Router<GatewayState>, deps: RouteDependencies): void {
  router.get('/api/cities', licensedAccess(deps.access), (ctx) => {
    const { snapshot, key } = ctx.state;
    const revision = snapshot.revision;
    const live = isLiveScope(ctx.query.status);
    if (live && key?.cities === null) {
      sendJson(ctx, snapshot.document(DOCUMENT.cities)?.body ?? '');
      return;
    }
    const allowed = new Set(live ? (key?.cities ?? []) : []);
    const bodies = snapshot.cities().filter((city) => allowed.has(city.slug)).map((city) => city.cityBody);
    sendJson(ctx, `{"cities":[${bodies.join(',')}],"count":${bodies.length},"datasetRevision":"${revision}"}`);
  });

  router.get('/api/cities/counts', licensedAccess(deps.access), (ctx) => {
    const { snapshot, key } = ctx.state;
    const live = isLiveScope(ctx.query.status);
    if (live && key?.cities === null) {
      sendJson(ctx, snapshot.document(DOCUMENT.cityCounts)?.body ?? '');
      return;
    }
    const allowed = new Set(live ? (key?.cities ?? []) : []);
    const cities = snapshot.cities().filter((city) => allowed.has(city.slug));
    const total = cities.reduce((sum, city) => sum + city.programCount, 0);
    sendJson(ctx, `{"cities":[${cities.map((city) => city.countsBody).join(',')}],"count":${cities.length},"datasetRevision":"${snapshot.revision}","totalPrograms":${total}}`);
  });
}
