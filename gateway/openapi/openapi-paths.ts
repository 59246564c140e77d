/**
 * The `paths` of the OpenAPI description, generated from the route table: each route's operation with the
 * statuses its access class adds to its own (gateway/routes/route-table.ts declares those).
 */
import type { ErrorCode } from '../http/api-error.ts';
import type { RouteEntry, RouteOperation, RouteTable } from '../routes/route-entry.ts';
import type { AccessClass } from '../vocabulary/access-class.ts';
import { deprecatedResponses } from './deprecated-responses.ts';
import { parameterRefs, type ParameterComponent } from './openapi-parameters.ts';
import { errorResponse, okResponse, responseRef } from './openapi-responses.ts';

/**
 * Statuses every operation shares: any other method is 405, an oversized or slow request 414, 431 or
 * 408, and an unexpected failure is 500.
 */
const SHARED = {
  '405': responseRef('MethodNotAllowed'),
  '408': responseRef('RequestTimeout'),
  '414': responseRef('UriTooLong'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('InternalError'),
} as const;

/**
 * A request Node cannot parse is a 400 before any operation is chosen. An operation with 400s of its own
 * declares them with `ownBadRequest`, which keeps MALFORMED_REQUEST among the codes of the shared status.
 */
const MALFORMED = { '400': responseRef('MalformedRequest') } as const;

/** 403 codes every licensed route can send; routes add their scope codes. */
const KEY_REFUSALS: readonly ErrorCode[] = ['API_KEY_REVOKED', 'API_KEY_EXPIRED', 'API_TRIAL_POLICY_INVALID'];

const STORAGE_OUTAGE_SUMMARY = 'A store the request depends on is unavailable. Retryable, and never equal to an empty dataset: licensed data is never served unvalidated.';

const PROBE_NOTE = 'An operational probe for load balancers and supervisors, not part of the dataset contract: keyless and never metered, so polling it cannot exhaust a limit.';

/** The 200 (and, on the ETag allowlist, the 304) a route's caching policy implies. */
function successResponses(route: RouteEntry): Record<string, object> {
  const { ok } = route.operation;
  // Probes are never metered, so their answers carry no rate-limit headers.
  const options = { metered: route.access !== 'probe', ...(ok.mediaType === undefined ? {} : { mediaType: ok.mediaType }), extraHeaders: ok.headers ?? [] };
  const success: Record<string, object> = { '200': okResponse(ok.description, ok.schema, route.caching, options) };
  if (route.caching === 'cacheable') success['304'] = responseRef('NotModified');
  return success;
}

/** An operation object; its `responses` by status. */
interface OperationObject {
  responses: Record<string, object>;
  [field: string]: unknown;
}

/** `If-None-Match` for the ETag allowlist, then the operation's own parameters. */
function parametersOf(route: RouteEntry): Array<{ $ref: string }> {
  const own: readonly ParameterComponent[] = route.operation.parameters ?? [];
  return parameterRefs('RequestId', ...(route.caching === 'cacheable' ? ['IfNoneMatch' as const] : []), ...own);
}

function publicOperation(route: RouteEntry, op: RouteOperation): OperationObject {
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\nKeyless; metered per client address under the public request limit.`,
    security: [],
    parameters: parametersOf(route),
    responses: { ...MALFORMED, ...successResponses(route), ...op.responses, ...SHARED, '429': responseRef('RateLimited') },
  };
}

function licensedOperation(route: RouteEntry, op: RouteOperation): OperationObject {
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\nRequires \`X-Api-Key\`. Metered per key under its tier's minute and day windows; 400, 401 and 403 refusals before the key is accepted are metered per client address under the public limit, never against a key.`,
    parameters: parametersOf(route),
    responses: {
      ...MALFORMED,
      ...successResponses(route),
      ...op.responses,
      '401': responseRef('Unauthorized'),
      '403': errorResponse(
        'The key is revoked, expired or has a malformed trial policy, or the request is outside its scope. The body is an ApiError, or a TrialScopeError for trial-scope refusals; `allowedCitySlugs` may list up to five approved slugs.',
        [...KEY_REFUSALS, ...(op.scopeRefusals ?? [])],
        { metered: true },
      ),
      ...SHARED,
      '429': responseRef('RateLimited'),
      '500': responseRef('LicensedInternalError'),
      // The storage outages are refused before metering; a route's own 503 comes after, metered and varying.
      '503': op.unavailable === undefined
        ? errorResponse(STORAGE_OUTAGE_SUMMARY, ['AUTH_STORAGE_UNAVAILABLE', 'RATE_LIMIT_STORAGE_UNAVAILABLE'], { retryAfter: true })
        : errorResponse(
          `${STORAGE_OUTAGE_SUMMARY} \`Retry-After\` accompanies the authentication and rate-limit storage outages; the rate-limit and \`Vary\` headers accompany the route's own.`,
          ['AUTH_STORAGE_UNAVAILABLE', 'RATE_LIMIT_STORAGE_UNAVAILABLE', ...op.unavailable],
          { retryAfter: true, metered: true, extraHeaders: ['Vary-Error'] },
        ),
    },
  };
}

function probeOperation(route: RouteEntry, op: RouteOperation): OperationObject {
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\n${PROBE_NOTE}`,
    security: [],
    parameters: parametersOf(route),
    responses: { ...successResponses(route), ...op.responses, ...MALFORMED, ...SHARED },
  };
}

const OPERATION_OF: Record<AccessClass, (route: RouteEntry, op: RouteOperation) => OperationObject> = {
  public: publicOperation,
  licensed: licensedOperation,
  probe: probeOperation,
};

/** A @koa/router template (`:city` parameters) as an OpenAPI path (`{city}` parameters). */
export function openApiPathOf(template: string): string {
  return template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The `paths` object: one path per route, in table order, one operation per method. */
export function openApiPaths(routes: RouteTable): Record<string, object> {
  const paths: Record<string, object> = {};
  for (const route of routes) {
    const described = OPERATION_OF[route.access](route, route.operation);
    // A deprecated operation says so, and its responses declare the headers that announce it (spec 9.4).
    const operation = route.deprecation === undefined ? described : { ...described, responses: deprecatedResponses(described.responses), deprecated: true };
    paths[openApiPathOf(route.path)] = Object.fromEntries(route.methods.map((method) => [method.toLowerCase(), operation]));
  }
  return paths;
}
