/**
 * Operational probes for load balancers and supervisors, outside the dataset contract: never keyed and
 * never metered, so a health checker polling them cannot exhaust a limit or be refused by one.
 * - `GET /healthz` (liveness): 200 while the process serves HTTP at all.
 * - `GET /readyz` (readiness): 200 with the served revision while the gateway takes traffic; 503
 *   `SHUTTING_DOWN` from the moment a SIGTERM or SIGINT starts the drain, so a load balancer stops sending
 *   new requests here while the ones in flight complete.
 */
import type Router from '@koa/router';
import { ApiError } from '../http/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { sendJson } from '../http/send-json.ts';

/** What the probes read. */
export interface ProbeDependencies {
  /** True once the gateway is draining before exit. */
  isDraining: () => boolean;
}

/** The body of a successful probe. */
export const probeStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: { enum: ['alive', 'ready'] },
    datasetRevision: { type: 'string', pattern: '^gm1-[a-f0-9]{64}$' },
  },
} as const;

/** Registers `/healthz` and `/readyz`. */
export function registerProbeRoutes(router: Router<GatewayState>, deps: ProbeDependencies): void {
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    sendJson(ctx, '{"status":"alive"}');
  });
  router.get('/readyz', (ctx) => {
    if (deps.isDraining()) {
      throw new ApiError(503, 'SHUTTING_DOWN', 'this gateway is draining before it exits; send new requests to another instance', { retryAfter: 1 });
    }
    ctx.set('Cache-Control', 'no-cache');
    sendJson(ctx, JSON.stringify({ status: 'ready', datasetRevision: ctx.state.snapshot.revision }));
  });
}
