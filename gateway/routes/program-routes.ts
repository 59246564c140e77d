/** Program collections and detail records (spec 4.3). */
import type Router from '@koa/router';
import { LRUCache } from 'lru-cache';
import { NATIONAL_SLUG } from '../../build/corpus/corpus-types.ts';
import { licensedAccess } from '../access/licensed-access.ts';
import { ApiError } from '../http/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { sendJson } from '../http/send-json.ts';
import { hasNoFilters, parseProgramFilters } from '../programs/parse-program-filters.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import type { RouteDependencies } from './route-dependencies.ts';

// One message for every missing, withheld or quarantined record: the route is no oracle (spec 4.3).
const recordNotFound = () => new ApiError(404, 'NOT_FOUND', 'program not found in the licensed live scope');
const cityNotFound = () => new ApiError(404, 'NOT_FOUND', 'city not found in the licensed live scope');

/** Registers `/api/programs`, `/api/programs/national`, `/api/programs/{city}` and the detail route. */
export function registerProgramRoutes(router: Router<GatewayState>, deps: RouteDependencies): void {
  // Unfiltered collections by revision and city. Reading one from the snapshot copies the whole blob out of
  // SQLite on every request (the top gateway frame in the bench profile, plus the GC of that copy). A
  // snapshot never changes, so a body cached for a revision and city is the one the snapshot would return,
  // and the city was live in that revision.
  const unfiltered = new LRUCache<string, Buffer>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (body) => Math.max(1, body.length) });
  // Whether a slug is a live city of a revision, remembered: a filtered cache hit then reads no SQLite at all.
  const liveCities = new LRUCache<string, boolean>({ max: 50_000 });
  const isLiveCity = (snapshot: Snapshot, city: string) => {
    const key = `${snapshot.revision}\u0000${city}`;
    let live = liveCities.get(key);
    if (live === undefined) {
      live = snapshot.city(city) !== undefined;
      liveCities.set(key, live);
    }
    return live;
  };
  const collection = (snapshot: Snapshot, city: string, query: Record<string, string | string[] | undefined>) => {
    const filters = parseProgramFilters(query);
    const unfilteredKey = `${snapshot.revision}\u0000${city}`;
    if (hasNoFilters(filters)) {
      const cached = unfiltered.get(unfilteredKey);
      if (cached) return cached;
    }
    if (city !== NATIONAL_SLUG && !isLiveCity(snapshot, city)) throw cityNotFound();
    if (hasNoFilters(filters)) {
      const stored = snapshot.collection(city);
      if (!stored) throw cityNotFound();
      unfiltered.set(unfilteredKey, stored.body);
      return stored.body;
    }
    return deps.filteredCollection(snapshot, city, filters);
  };

  router.get('/api/programs', licensedAccess(deps.access, { city: (ctx) => ctx.state.snapshot.defaultCity }), (ctx) => {
    const city = ctx.state.snapshot.defaultCity;
    const body = (() => {
      try {
        return collection(ctx.state.snapshot, city, ctx.query);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) throw new ApiError(404, 'NOT_FOUND', 'the default licensed city is unavailable');
        throw error;
      }
    })();
    sendJson(ctx, body);
  });

  router.get('/api/programs/national', licensedAccess(deps.access, { paidOnly: () => true }), (ctx) => {
    sendJson(ctx, collection(ctx.state.snapshot, NATIONAL_SLUG, ctx.query));
  });

  router.get('/api/programs/:city', licensedAccess(deps.access, { city: (ctx) => ctx.params.city }), (ctx) => {
    sendJson(ctx, collection(ctx.state.snapshot, ctx.params.city ?? '', ctx.query));
  });

  router.get(
    '/api/programs/:city/:programId',
    licensedAccess(deps.access, { city: (ctx) => ctx.params.city, paidOnly: (ctx) => ctx.params.city === NATIONAL_SLUG }),
    (ctx) => {
      const record = ctx.state.snapshot.record(ctx.params.city ?? '', ctx.params.programId ?? '');
      if (!record || record.withheld !== 'served') throw recordNotFound();
      sendJson(ctx, record.body);
    },
  );
}
