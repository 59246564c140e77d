/** Keyless routes (spec 4.2): the sample, dataset health, readiness, both schemas and the report artifacts. */
import type Router from '@koa/router';
import { REPORT_NAMES } from '../../build/contract/report-artifact-schema.ts';
import { DOCUMENT } from '../../build/snapshot/snapshot-format.ts';
import { publicAccess } from '../access/public-access.ts';
import { ApiError } from '../http/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { sendCacheable, sendJson } from '../http/send-json.ts';
import { createReadinessEvaluator } from '../readiness/evaluate-readiness.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import type { RouteDependencies } from './route-dependencies.ts';

/** Registers every keyless route except `/openapi.json`. */
export function registerPublicRoutes(router: Router<GatewayState>, deps: RouteDependencies): void {
  const metered = publicAccess({ limiter: deps.access.limiter, now: deps.now });
  const evaluate = createReadinessEvaluator(deps.infrastructure);
  const readiness = (snapshot: Snapshot) => evaluate(snapshot.readinessInputs, snapshot.revision, new Date(deps.now()));
  const storedOr503 = (snapshot: Snapshot, name: string) => {
    const stored = snapshot.document(name);
    if (!stored) throw new ApiError(503, 'DATASET_UNAVAILABLE', `the ${name} document is missing from this revision`);
    return stored;
  };

  router.get('/api/sample', metered, (ctx) => sendCacheable(ctx, storedOr503(ctx.state.snapshot, DOCUMENT.sample)));
  router.get('/api/dataset/schema', metered, (ctx) => sendCacheable(ctx, storedOr503(ctx.state.snapshot, DOCUMENT.programSchema)));
  router.get('/api/dataset/export-schema', metered, (ctx) => sendCacheable(ctx, storedOr503(ctx.state.snapshot, DOCUMENT.exportSchema)));

  let lastHealth: { head: Buffer; live: string; body: Buffer } | undefined;
  router.get('/api/dataset/health', metered, (ctx) => {
    const { snapshot } = ctx.state;
    const head = storedOr503(snapshot, DOCUMENT.healthHead).body;
    const tail = storedOr503(snapshot, DOCUMENT.healthTail).body;
    ctx.set('Cache-Control', 'no-cache');
    // Requests in the same millisecond get the same bytes: the 279 KB concatenation (at 57,000 rows) per
    // request drove the gateway's RSS peak under load (issue 6).
    const live = readiness(snapshot);
    if (lastHealth?.head !== head || lastHealth.live !== live) lastHealth = { head, live, body: Buffer.concat([head, Buffer.from(live), tail]) };
    sendJson(ctx, lastHealth.body);
  });

  router.get('/api/data/readiness', metered, (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    sendJson(ctx, readiness(ctx.state.snapshot));
  });

  for (const name of REPORT_NAMES) {
    router.get(`/api/dataset/reports/${name}`, metered, (ctx) => {
      const stored = ctx.state.snapshot.document(DOCUMENT.report(name));
      // Spec 4.2: an artifact not yet available is a 503, never an empty document.
      if (!stored) throw new ApiError(503, 'ARTIFACT_UNAVAILABLE', `the ${name} artifact is not available`);
      ctx.set('Cache-Control', 'public, max-age=3600');
      sendJson(ctx, stored.body);
    });
  }
}
