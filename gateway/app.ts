/**
 * What runs before a route's handler, in order: the gateway as a Koa app, whose middleware order reads like
 * a request's path through the service:
 * request id -> request log -> request metrics -> snapshot pin -> error renderer -> versioning headers ->
 * request guards (method, URL length, Host) -> routes, where each route runs the access chain of its class
 * (public: rate limit by address; licensed: key, tier, scope, rate limit; probe: none) and then its
 * handler (gateway/pipeline/route-chain.ts, registered by routes/register-routes.ts). The log and metrics
 * sit outside the error renderer, so they record the status the client gets.
 * Ahead of it all, createRequestListener puts the fast path (gateway/fast-path/serve-fast-path.ts): the
 * same composed route steps on node:http, in the same order and with the same headers, for the routes
 * whose answers are precomputed or cached; it declines to Koa every request it does not answer in full.
 * Neither ever listens; gateway/start-gateway.ts does.
 *
 * Query strings are read by one parser, http/parse-query.ts, never by Koa's `ctx.query` (quadratic in
 * repeated names). Its first step counts parameters and stops at the first past MAX_QUERY_PARAMETERS,
 * so a parse costs at most a bounded scan plus decoding the 32 parameters it accepts. The order keeps
 * both the spec's 400 and "nothing costly before metering": route handlers parse after the rate limit
 * (a spent key gets its 429 unparsed; a query past the bound gets a 400 counted against the key, with
 * rate-limit headers); only the fast path's handlers (a filter, the cities' `status`, a change page's
 * query) and a trial key's change-feed scope check parse before the meter, bounded the same way, and their
 * refusals are metered too (by Koa after the fast path declines, or per client address by the licensed
 * access step).
 */
import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import type { AccessDependencies } from './access/licensed-access.ts';
import { publicAccess } from './access/public-access.ts';
import type { CursorKeyring } from './changes/cursor-keyring.ts';
import { ApiError } from './http/api-error.ts';
import type { GatewayState } from './http/gateway-state.ts';
import { renderErrors, type ErrorLogger } from './http/render-errors.ts';
import { requestGuards } from './http/request-guards.ts';
import { requestId } from './http/request-id.ts';
import { versioningHeaders } from './http/versioning-headers.ts';
import { createEncodedBodies, type EncodedBodies } from './encoding/encoded-bodies.ts';
import { createFastPath } from './fast-path/serve-fast-path.ts';
import { splitCacheBudget } from './programs/cache-budget.ts';
import { createCollectionFilter } from './programs/filter-collection.ts';
import { createProgramBodies, type ProgramBodies } from './programs/program-bodies.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { GatewayLogger } from './observability/gateway-logger.ts';
import type { GatewayMetrics } from './observability/gateway-metrics.ts';
import { instrumentKeyLookup, instrumentLimiter } from './observability/instrument-storage.ts';
import { logRequests } from './observability/log-requests.ts';
import { measureRequests } from './observability/measure-requests.ts';
import type { Infrastructure } from './readiness/evaluate-readiness.ts';
import { buildOpenApiDocument } from './openapi/build-openapi-document.ts';
import { composeRoute, type RouteChain } from './pipeline/route-chain.ts';
import { sharedCacheableBodies } from './pipeline/shared-cacheable-bodies.ts';
import { registerRouteChains } from './routes/register-routes.ts';
import type { RouteDependencies } from './routes/route-dependencies.ts';
import type { RouteTable } from './routes/route-entry.ts';
import { ROUTE_TABLE } from './routes/route-table.ts';
import type { SnapshotHolder } from './snapshot/snapshot-holder.ts';
import { API_VERSION } from '../build/contract/api-version.ts';

/** Everything the app uses, passed in. */
export interface AppDependencies extends AccessDependencies {
  /** The snapshot to serve; pinned once per request, so a swap never changes a request midway. */
  snapshots: SnapshotHolder;
  infrastructure: Infrastructure;
  /** Take client addresses from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  /** The secrets that sign and verify change-feed cursors. */
  cursorKeys: CursorKeyring;
  /** Request lines and unexpected errors go here; tests pass a silent or capturing logger. */
  log: GatewayLogger;
  /** Prometheus metrics, when the admin port is on. */
  metrics?: GatewayMetrics;
  /** Bytes the response caches may hold together (`--cache-mb`); 48 MiB unless told. */
  cacheBytes?: number;
  /** True once the gateway drains before exit; the readiness probe then answers 503. */
  isDraining?: () => boolean;
  /** The routes to serve and document; gateway/routes/route-table.ts unless told (tests add routes to a copy). */
  routes?: RouteTable;
  /**
   * The compressed forms of the served snapshot's bodies; made here, within the cache budget, unless given
   * (gateway/start-gateway.ts gives it, to drop it with the snapshot's other state and to wait on it).
   */
  encodings?: EncodedBodies;
}

/** Options of createRequestListener. */
export interface RequestListenerOptions {
  /** Answer the fast-path routes on node:http ahead of Koa (default); false serves all through Koa. */
  fastPath?: boolean;
}

/**
 * The server's request listener: the fast path, and the Koa app for every request the fast path declines.
 * Both run the same composed routes, so they share the instrumented limiter, the metrics and every cache.
 */
export function createRequestListener(deps: AppDependencies, options: RequestListenerOptions = {}): RequestListener {
  const shared = sharedParts(deps);
  const chains = composeRoutes(deps, shared);
  shared.encodings.precompute((snapshot, snapshotIndependentOnly) => sharedCacheableBodies(chains, snapshot, snapshotIndependentOnly));
  const koa = buildApp(deps, shared, chains).callback();
  if (options.fastPath === false) return koa;
  const fastPath = createFastPath({
    snapshots: deps.snapshots,
    chains,
    trustProxy: deps.trustProxy,
    encodings: shared.encodings,
    apiVersion: API_VERSION,
    log: deps.log,
    metrics: deps.metrics,
  });
  return (request, response) => {
    if (!fastPath(request, response)) void koa(request, response);
  };
}

interface SharedParts {
  changePageBytes: number;
  limiter: RateLimiter;
  lookupKey: AccessDependencies['lookupKey'];
  programBodies: ProgramBodies;
  encodings: EncodedBodies;
}

function sharedParts(deps: AppDependencies): SharedParts {
  const { metrics } = deps;
  const budget = splitCacheBudget(deps.cacheBytes);
  const programBodies = createProgramBodies(createCollectionFilter(budget), budget);
  const encodings = deps.encodings ?? createEncodedBodies({
    servedSnapshot: () => deps.snapshots.current,
    maxBytes: budget.encodedBytes,
    onError: (error) => deps.log.error({ err: error }, 'compressing a response body failed; it is sent uncompressed'),
  });
  // A served file that fails its check: nothing cached from it, compressed forms included, is served again.
  deps.snapshots.onFault(() => {
    programBodies.clear();
    encodings.drop();
  });
  return {
    limiter: metrics === undefined ? deps.limiter : instrumentLimiter(deps.limiter, metrics),
    lookupKey: metrics === undefined ? deps.lookupKey : instrumentKeyLookup(deps.lookupKey, metrics),
    programBodies,
    changePageBytes: budget.changePageBytes,
    encodings,
  };
}

/** Every route of the table composed once with its access chain and handler (and the handler's caches). */
function composeRoutes(deps: AppDependencies, shared: SharedParts): RouteChain[] {
  const routes = deps.routes ?? ROUTE_TABLE;
  const routeDeps: RouteDependencies = {
    access: { lookupKey: shared.lookupKey, limiter: shared.limiter, now: deps.now },
    lookupKeyAtOnce: deps.lookupKey,
    programBodies: shared.programBodies,
    changePageBytes: shared.changePageBytes,
    cursorKeys: deps.cursorKeys,
    infrastructure: deps.infrastructure,
    isDraining: deps.isDraining ?? (() => false),
    openApiDocument: buildOpenApiDocument(routes),
    now: deps.now,
    onSnapshotFault: (drop) => deps.snapshots.onFault(() => drop()),
  };
  return routes.map((route) => composeRoute(route, routeDeps));
}

function buildApp(deps: AppDependencies, shared: SharedParts, chains: readonly RouteChain[]): Koa<GatewayState> {
  // One trusted proxy: only the X-Forwarded-For entry it appended counts; entries before it are client-written.
  const app = new Koa<GatewayState>({ proxy: deps.trustProxy, maxIpsCount: 1 });
  // Koa would print errors to stderr on its own; ours are rendered and logged by renderErrors.
  app.silent = true;
  const { log, metrics } = deps;
  const { limiter } = shared;
  const logError: ErrorLogger = (error, context) => log.error({ err: error, requestId: context.requestId, path: context.path }, 'unexpected error');
  // One URL per resource: path words match exactly as the route table writes them, without a trailing
  // slash (@koa/router would fold case and allow one), so a cache never holds a resource under two keys.
  const router = new Router<GatewayState>({ sensitive: true, strict: true });
  registerRouteChains(router, chains, shared.encodings);

  app.use(requestId());
  app.use(logRequests(log));
  if (metrics !== undefined) app.use(measureRequests(metrics));
  app.use(async (ctx, next) => {
    const lease = deps.snapshots.acquire();
    ctx.state.snapshot = lease.snapshot;
    try {
      await next();
    } finally {
      lease.release();
    }
  });
  app.use(renderErrors(logError));
  app.use(versioningHeaders(API_VERSION));
  app.use(requestGuards({ limiter, now: deps.now }));
  app.use(router.routes());
  // Unmatched paths: metered like any keyless request, so the 404 carries rate-limit headers (spec 7).
  app.use(publicAccess({ limiter, now: deps.now }));
  app.use((ctx) => {
    throw new ApiError(404, 'NOT_FOUND', `no route ${ctx.path}`);
  });
  return app;
}
