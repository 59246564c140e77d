/**
 * Operational probes for load balancers and supervisors, outside the dataset contract: never keyed and
 * never metered, so a health checker polling them cannot exhaust a limit or be refused by one.
 * - liveness: 200 while the process serves HTTP at all.
 * - readiness: 200 with the served revision while the gateway takes traffic; 503 `SHUTTING_DOWN` from the
 *   moment a SIGTERM or SIGINT starts the drain, so a load balancer stops sending new requests here while
 *   the ones in flight complete; 503 `DATASET_UNAVAILABLE` while the served file fails its check (the route
 *   pipeline refuses it before this handler runs: gateway/pipeline/route-chain.ts).
 */
import { REVISION_PATTERN } from '../../build/contract/api-version.ts';
import { ApiError } from '../http/api-error.ts';
import { jsonReply } from '../pipeline/json-reply.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

/** The body of a successful probe. */
export const probeStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: { enum: ['alive', 'ready'] },
    datasetRevision: { type: 'string', pattern: REVISION_PATTERN },
  },
} as const;

/** The liveness probe. */
export const livenessHandler: RouteHandlerFactory = () => () => jsonReply('{"status":"alive"}');

/** The readiness probe. */
export const readinessProbeHandler: RouteHandlerFactory = (deps) => {
  // One body per revision: the probe is polled, and the revision changes only with a swap.
  let last: { revision: string; body: string } | undefined;
  return ({ snapshot }) => {
    if (deps.isDraining()) {
      throw new ApiError(503, 'SHUTTING_DOWN', 'this gateway is draining before it exits; send new requests to another instance', { retryAfter: 1 });
    }
    if (last?.revision !== snapshot.revision) last = { revision: snapshot.revision, body: JSON.stringify({ status: 'ready', datasetRevision: snapshot.revision }) };
    return jsonReply(last.body);
  };
};
