/**
 * Handlers of the keyless dataset routes (spec 4.2): the sample, both schemas, health, readiness and the
 * report artifacts. Their Cache-Control is their route table entry's `caching` policy.
 */
import type { ReportName } from '../../build/contract/report-artifact-schema.ts';
import { DOCUMENT } from '../../build/snapshot/snapshot-format.ts';
import { ApiError } from '../http/api-error.ts';
import { cacheableReply, jsonReply } from '../pipeline/json-reply.ts';
import { createReadinessEvaluator } from '../readiness/evaluate-readiness.ts';
import { DATASET_RETRY_AFTER_SECONDS } from '../snapshot/dataset-unavailable.ts';
import type { Snapshot, StoredDocument } from '../snapshot/open-snapshot.ts';
import type { RouteDependencies } from './route-dependencies.ts';
import type { RouteHandlerFactory } from './route-entry.ts';

function storedOr503(snapshot: Snapshot, name: string): StoredDocument {
  const stored = snapshot.document(name);
  if (!stored) throw new ApiError(503, 'DATASET_UNAVAILABLE', `the ${name} document is missing from this revision`, { retryAfter: DATASET_RETRY_AFTER_SECONDS });
  return stored;
}

/** The readiness gate of the served snapshot, evaluated now. */
function readinessOf(deps: RouteDependencies): (snapshot: Snapshot) => string {
  const evaluate = createReadinessEvaluator(deps.infrastructure);
  return (snapshot) => evaluate(snapshot.readinessInputs, snapshot.revision, new Date(deps.now()));
}

/** A stored document on the ETag allowlist, or a 503 when the revision lacks it. */
function storedDocumentHandler(name: string): RouteHandlerFactory {
  return () => (request) => cacheableReply(storedOr503(request.snapshot, name));
}

/** The keyless sample collection. */
export const sampleHandler = storedDocumentHandler(DOCUMENT.sample);

/** The Program record's JSON Schema document. */
export const programSchemaHandler = storedDocumentHandler(DOCUMENT.programSchema);

/** The flat-export row's JSON Schema document. */
export const exportSchemaHandler = storedDocumentHandler(DOCUMENT.exportSchema);

/** Dataset health: the stored head and tail around the readiness gate evaluated now. */
export const healthHandler: RouteHandlerFactory = (deps) => {
  const readiness = readinessOf(deps);
  let lastHealth: { head: Buffer; live: string; body: Buffer } | undefined;
  deps.onSnapshotFault(() => (lastHealth = undefined));
  return ({ snapshot }) => {
    const head = storedOr503(snapshot, DOCUMENT.healthHead).body;
    const tail = storedOr503(snapshot, DOCUMENT.healthTail).body;
    // Requests in the same millisecond get the same bytes: concatenating the whole document per request
    // drove the gateway's RSS peak under load (issue 6; figures in BENCHMARKS.md).
    const live = readiness(snapshot);
    if (lastHealth?.head !== head || lastHealth.live !== live) lastHealth = { head, live, body: Buffer.concat([head, Buffer.from(live), tail]) };
    return jsonReply(lastHealth.body);
  };
};

/** The paid-licensing readiness gate, evaluated per request. */
export const readinessHandler: RouteHandlerFactory = (deps) => {
  const readiness = readinessOf(deps);
  return ({ snapshot }) => jsonReply(readiness(snapshot));
};

/** One frozen report artifact; spec 4.2: one not yet available is a 503, never an empty document. */
export function reportHandler(name: ReportName): RouteHandlerFactory {
  return () => ({ snapshot }) => {
    const stored = snapshot.document(DOCUMENT.report(name));
    if (!stored) throw new ApiError(503, 'ARTIFACT_UNAVAILABLE', `the ${name} artifact is not available`);
    return jsonReply(stored.body);
  };
}
