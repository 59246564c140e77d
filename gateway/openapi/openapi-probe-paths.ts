/** The `paths` of the operational probes (gateway/routes/probe-routes.ts): keyless, unmetered, outside the dataset contract. */
import { probeStatusSchema } from '../routes/probe-routes.ts';
import { parameterRefs } from './openapi-parameters.ts';
import { errorResponse, okResponse } from './openapi-responses.ts';

// Probes are never metered, so their answers carry no rate-limit headers.
const UNMETERED = { metered: false } as const;

const NOTE = 'An operational probe for load balancers and supervisors, not part of the dataset contract: keyless and never metered, so polling it cannot exhaust a limit.';

/** `/healthz` and `/readyz`, each with the responses every path shares (`shared`: 405, 500 and the like). */
export function probePaths(shared: Readonly<Record<string, object>>): Record<string, object> {
  return {
    '/healthz': {
      get: {
        operationId: 'getLiveness',
        tags: ['operations'],
        summary: 'Liveness probe',
        description: `200 \`{"status":"alive"}\` while the process serves HTTP; restart it when this fails.\n\n${NOTE}`,
        security: [],
        parameters: parameterRefs('RequestId'),
        responses: { '200': okResponse('The process is alive.', probeStatusSchema, 'revalidate', UNMETERED), ...shared },
      },
    },
    '/readyz': {
      get: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness probe',
        description: `200 \`{"status":"ready","datasetRevision":...}\` while the gateway takes traffic. From the moment SIGTERM or SIGINT starts a graceful shutdown it answers 503 \`SHUTTING_DOWN\`: stop routing new requests here; requests in flight still complete. Distinct from \`/api/data/readiness\`, the dataset's paid-licensing gate.\n\n${NOTE}`,
        security: [],
        parameters: parameterRefs('RequestId'),
        responses: {
          '200': okResponse('The gateway takes traffic; `datasetRevision` is the revision it serves.', probeStatusSchema, 'revalidate', UNMETERED),
          '503': errorResponse('The gateway is draining before it exits. Route new requests to another instance.', ['SHUTTING_DOWN'], { retryAfter: true }),
          ...shared,
        },
      },
    },
  };
}
