/**
 * The gateway as a Koa app. The middleware order reads like a request's path through the service:
 * request id -> snapshot pin -> error renderer -> versioning headers -> method guard -> routes, where
 * each route carries its own public or licensed access chain (key, tier, scope, rate limit).
 * createApp never listens; scripts/commands/serve-command.ts does.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { AccessDependencies } from './access/licensed-access.ts';
import { publicAccess } from './access/public-access.ts';
import { ApiError } from './http/api-error.ts';
import type { GatewayState } from './http/gateway-state.ts';
import { renderErrors, type ErrorLogger } from './http/render-errors.ts';
import { requestId } from './http/request-id.ts';
import { versioningHeaders, type DeprecationTable } from './http/versioning-headers.ts';
import { createCollectionFilter, type CollectionCacheOptions } from './programs/filter-collection.ts';
import type { Infrastructure } from './readiness/evaluate-readiness.ts';
import { registerChangeRoutes } from './routes/change-routes.ts';
import { registerCityRoutes } from './routes/city-routes.ts';
import { registerOpenApiRoute } from './routes/openapi-route.ts';
import { registerProbeRoutes } from './routes/probe-routes.ts';
import { registerProgramRoutes } from './routes/program-routes.ts';
import { registerPublicRoutes } from './routes/public-routes.ts';
import type { RouteDependencies } from './routes/route-dependencies.ts';
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
  logError: ErrorLogger;
  deprecations?: DeprecationTable;
  cache?: CollectionCacheOptions;
  /** True once the gateway drains before exit; `/readyz` then answers 503. */
  isDraining?: () => boolean;
}

/** Builds the Koa app. */
export function createApp(deps: AppDependencies): Koa<GatewayState> {
  // One trusted proxy: only the X-Forwarded-For entry it appended counts; entries before it are client-written.
  const app = new Koa<GatewayState>({ proxy: deps.trustProxy, maxIpsCount: 1 });
  // Koa would print errors to stderr on its own; ours are rendered and logged by renderErrors.
  app.silent = true;
  const routeDeps: RouteDependencies = {
    access: { lookupKey: deps.lookupKey, limiter: deps.limiter, now: deps.now },
    filteredCollection: createCollectionFilter(deps.cache),
    infrastructure: deps.infrastructure,
    now: deps.now,
  };
  const router = new Router<GatewayState>();
  registerProbeRoutes(router, { isDraining: deps.isDraining ?? (() => false) });
  registerPublicRoutes(router, routeDeps);
  registerOpenApiRoute(router, routeDeps);
  registerCityRoutes(router, routeDeps);
  registerProgramRoutes(router, routeDeps);
  registerChangeRoutes(router, { ...routeDeps, cursorSecret: deps.cursorSecret });

  app.use(requestId());
  app.use(async (ctx, next) => {
    const lease = deps.snapshots.acquire();
    ctx.state.snapshot = lease.snapshot;
    try {
      await next();
    } finally {
      lease.release();
    }
  });
  app.use(renderErrors(deps.logError));
  app.use(versioningHeaders(API_VERSION, deps.deprecations ?? new Map()));
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', 'the API is read-only: only GET and HEAD are allowed', { headers: { Allow: 'GET, HEAD' } });
    }
    await next();
  });
  app.use(router.routes());
  // Unmatched paths: metered like any keyless request, so the 404 carries rate-limit headers (spec 7).
  app.use(publicAccess({ limiter: deps.limiter, now: deps.now }));
  app.use((ctx) => {
    throw new ApiError(404, 'NOT_FOUND', `no route ${ctx.path}`);
  });
  return app;
}
