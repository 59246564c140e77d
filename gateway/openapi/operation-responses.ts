/** Response objects the route table's operations declare for their own statuses (400, 404, 503). */
import type { ErrorCode } from '../http/api-error.ts';
import { MAX_QUERY_PARAMETERS } from '../http/parse-query.ts';
import { errorResponse } from './openapi-responses.ts';

/**
 * A licensed operation's own 400 (`codes`, sent after the key is accepted, so metered and varying on the
 * key), together with the 400s answered before any route is chosen, which the same status carries.
 */
export function ownBadRequest(summary: string, codes: readonly ErrorCode[]): object {
  return errorResponse(
    `${summary} Do not retry unchanged. A request that is not well-formed HTTP gets the same status with \`MALFORMED_REQUEST\`, and one whose target holds a malformed percent-escape with \`MALFORMED_URL\`, before any operation is chosen (no \`Vary\`; only \`MALFORMED_URL\` carries rate-limit headers, those of the client address\'s window).`,
    [...codes, 'MALFORMED_REQUEST', 'MALFORMED_URL'],
    { metered: true, extraHeaders: ['Vary-Error'] },
  );
}

/** A licensed operation's 404: answered after the key is accepted, so metered and varying on the key. */
export function licensedNotFound(summary: string): object {
  return errorResponse(summary, ['NOT_FOUND'], { metered: true, extraHeaders: ['Vary-Error'] });
}

/** The query bound of every route that reads parameters (gateway/http/parse-query.ts), checked after metering. */
export const QUERY_BOUND = `A query of more than ${MAX_QUERY_PARAMETERS} parameters (repeats count) is a 400 \`INVALID_PARAMETER\`.`;

/** The 400 of the program collections. */
export const FILTER_ERROR = ownBadRequest(`A filter parameter is malformed. ${QUERY_BOUND}`, ['INVALID_PARAMETER', 'INVALID_STATUS_FILTER']);

/**
 * Why any route that reads the snapshot can answer 503 DATASET_UNAVAILABLE: its file stopped verifying
 * (gateway/snapshot/watch-served-file.ts) or could not be read.
 */
const SNAPSHOT_FAILED = 'The served snapshot file stopped verifying (changed, copied over, truncated or deleted in place) or could not be read: no byte of it is served, and the gateway answers again, with no restart, once a file that verifies is in place.';

/** The 503 of a keyless route that reads the snapshot. */
export const SNAPSHOT_UNAVAILABLE = errorResponse(
  `${SNAPSHOT_FAILED} Retryable (\`Retry-After\`); never equal to an empty dataset.`,
  ['DATASET_UNAVAILABLE'],
  { metered: true, retryAfter: true },
);

/** The 503 of a route serving a stored document the revision may lack, or whose snapshot failed. */
export const MISSING_DOCUMENT = errorResponse(
  `The served revision lacks this document (an incomplete snapshot), or: ${SNAPSHOT_FAILED} Retryable (\`Retry-After\`); never equal to an empty dataset.`,
  ['DATASET_UNAVAILABLE'],
  { metered: true, retryAfter: true },
);

/** The 503 of a report route: the artifact is not in the revision, or the snapshot failed. */
export const REPORT_UNAVAILABLE = errorResponse(
  `The artifact is not available in the served revision (\`ARTIFACT_UNAVAILABLE\`: no \`Retry-After\`), or (\`DATASET_UNAVAILABLE\`, with \`Retry-After\`): ${SNAPSHOT_FAILED} Neither carries \`X-Dataset-Revision\`.`,
  ['ARTIFACT_UNAVAILABLE', 'DATASET_UNAVAILABLE'],
  { metered: true, retryAfter: true },
);

/** The shape `/openapi.json` promises of itself. */
export const OPENAPI_DOCUMENT_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' }, info: { type: 'object' }, paths: { type: 'object' } },
} as const;
