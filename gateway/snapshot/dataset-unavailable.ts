/**
 * The one refusal of a request whose snapshot cannot be served: 503 DATASET_UNAVAILABLE with `Retry-After`,
 * never a 500 and never bytes of a file that no longer verifies (STYLE 28).
 */
import { ApiError } from '../http/api-error.ts';

/** Seconds a client is told to wait: the gateway serves again as soon as a file that verifies is in place. */
export const DATASET_RETRY_AFTER_SECONDS = 1;

/** The 503 of a snapshot that failed (changed in place, deleted, unreadable); names no file, which is the operator's to read in the log. */
export function datasetUnavailable(): ApiError {
  return new ApiError(503, 'DATASET_UNAVAILABLE', 'the served dataset file failed its integrity check or cannot be read; retry shortly', { retryAfter: DATASET_RETRY_AFTER_SECONDS });
}

/** Throws datasetUnavailable when `snapshot` failed; every answer read from a snapshot passes here before it is sent. */
export function assertServable(snapshot: { readonly failure: string | undefined }): void {
  if (snapshot.failure !== undefined) throw datasetUnavailable();
}
