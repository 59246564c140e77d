/**
 * The gateway as a Koa app. The middleware order reads like a request's path through the service:
 * request id -> request log -> request metrics -> snapshot pin -> error renderer -> versioning headers ->
 * request guards (method, URL length, Host) -> routes, where each route carries its own public or licensed
 * access chain (key, tier, scope, rate limit). The log and metrics sit outside the error renderer, so
 * they record the status the client gets.
 * Ahead of it all, createRequestListener puts the fast path for the licensed program routes
 * (gateway/fast-path), which declines to Koa every request it does not answer in full.
 * Neither ever listens; gateway/start-gateway.ts does.
 *
 * Query strings are read by one parser, http/parse-query.ts, never by Koa's `ctx.query` (quadratic in
 * repeated names). Its first step counts parameters and stops at the first past MAX_QUERY_PARAMETERS,
 * so a parse costs at most a bounded scan plus decoding the 32 parameters it accepts. The order keeps
 * both the spec's 400 and "nothing costly before metering": route handlers parse after the rate limit
 * (a spent key gets its 429 unparsed; a query past the bound gets a 400 counted against the key, with
 * rate-limit headers); only the fast path's filter read and a trial key's change-feed scope check parse
 * before the meter, bounded the same way, and their refusals are metered too (by Koa after the fast path
 * declines, or per client address by licensedAccess).
 */
import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import type { AccessDependencies } from './access/licensed-access.ts';
import { publicAccess } from './access/public-access.ts';
import { ApiError } from './http/api-error.ts';
import type { GatewayState } from './http/gateway-state.ts';
import { rejectLongUrls } from './http/reject-long-urls.ts';
import { renderErrors, type ErrorLogger } from './http/render-errors.ts';
import { requireHostHeader } from './http/require-host-header.ts';
import { requestId } from './http/request-id.ts';
import { versioningHeaders, type DeprecationTable } from './http/versioning-headers.ts';
import { createProgramFastPath } from './fast-path/program-fast-path.ts';
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
import { registerRoutes } from './routes/register-routes.ts';
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
  /** Secret that signs change-feed cursors. */
  cursorSecret: Buffer;
  /** Request lines and unexpected errors go here; tests pass a silent or capturing logger. */
  log: GatewayLogger;
  /** Prometheus metrics, when the admin port is on. */
  metrics?: GatewayMetrics;
  deprecations?: DeprecationTable;
  /** Bytes the response caches may hold together (`--cache-mb`); 48 MiB unless told. */
  cacheBytes?: number;
  /** True once the gateway drains before exit; the readiness probe then answers 503. */
  isDraining?: () => boolean;
  /** The routes to serve and document; gateway/routes/route-table.ts unless told (tests add routes to a copy). */
  routes?: RouteTable;
}

/** Options of createRequestListener. */
export interface RequestListenerOptions {
  /** Answer the licensed program routes on node:http ahead of Koa (default); false serves all through Koa. */
  fastPath?: boolean;
}

/**
 * The server's request listener: the fast path for the licensed program routes, and the Koa app for every
 * request the fast path declines. Both share the instrumented limiter, the metrics and every cache.
 */
export function createRequestListener(deps: AppDependencies, options: RequestListenerOptions = {}): RequestListener {
  const shared = sharedParts(deps);
  const koa = buildApp(deps, shared).callback();
  if (options.fastPath === false) return koa;
  const fastPath = createProgramFastPath({
    snapshots: deps.snapshots,
    routes: deps.routes ?? ROUTE_TABLE,
    access: { lookupKey: deps.lookupKey, limiter: shared.limiter, now: deps.now },
    programBodies: shared.programBodies,
    apiVersion: API_VERSION,
    deprecations: deps.deprecations ?? new Map(),
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
}

function sharedParts(deps: AppDependencies): SharedParts {
  const { metrics } = deps;
  const budget = splitCacheBudget(deps.cacheBytes);
  return {
    limiter: metrics === undefined ? deps.limiter : instrumentLimiter(deps.limiter, metrics),
    lookupKey: metrics === undefined ? deps.lookupKey : instrumentKeyLookup(deps.lookupKey, metrics),
    programBodies: createProgramBodies(createCollectionFilter(budget), budget),
    changePageBytes: budget.changePageBytes,
  };
}

function buildApp(deps: AppDependencies, shared: SharedParts): Koa<GatewayState> {
  // One trusted proxy: only the X-Forwarded-For entry it appended counts; entries before it are client-written.
  const app = new Koa<GatewayState>({ proxy: deps.trustProxy, maxIpsCount: 1 });
  // Koa would print errors to stderr on its own; ours are rendered and logged by renderErrors.
  app.silent = true;
  const { log, metrics } = deps;
  const { limiter, lookupKey } = shared;
  const logError: ErrorLogger = (error, context) => log.error({ err: error, requestId: context.requestId, path: context.path }, 'unexpected error');
  const routes = deps.routes ?? ROUTE_TABLE;
  const routeDeps: RouteDependencies = {
    access: { lookupKey, limiter, now: deps.now },
    programBodies: shared.programBodies,
    changePageBytes: shared.changePageBytes,
    cursorSecret: deps.cursorSecret,
    infrastructure: deps.infrastructure,
    isDraining: deps.isDraining ?? (() => false),
    openApiDocument: buildOpenApiDocument(routes),
    now: deps.now,
  };
  const router = new Router<GatewayState>();
  registerRoutes(router, routes, routeDeps);

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
  app.use(versioningHeaders(API_VERSION, deps.deprecations ?? new Map()));
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', 'the API is read-only: only GET and HEAD are allowed', { headers: { Allow: 'GET, HEAD' } });
    }
    await next();
  });
  app.use(rejectLongUrls());
  app.use(requireHostHeader());
  app.use(router.routes());
  // Unmatched paths: metered like any keyless request, so the 404 carries rate-limit headers (spec 7).
  app.use(publicAccess({ limiter, now: deps.now }));
  app.use((ctx) => {
    throw new ApiError(404, 'NOT_FOUND', `no route ${ctx.path}`);
  });
  return app;
}
