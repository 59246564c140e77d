/** Response objects of the OpenAPI description: successes, 304, and errors with the codes each can carry. */
import type { ErrorCode } from '../http/api-error.ts';
import { compressesSuccess } from '../encoding/compresses-success.ts';
import { ERROR_CODE_MEANINGS } from './error-code-meanings.ts';
import { headerRefs, RATE_LIMIT_HEADERS, type HeaderComponent } from './openapi-headers.ts';
import { schemaRef, type SchemaComponent } from './openapi-schemas.ts';
import type { SuccessCaching } from '../vocabulary/success-caching.ts';

const TRIAL_SCOPE_CODES: readonly ErrorCode[] = ['API_TRIAL_POLICY_INVALID', 'API_TRIAL_CITY_REQUIRED', 'API_TRIAL_CITY_FORBIDDEN'];

const CACHING_HEADERS: Readonly<Record<SuccessCaching, readonly HeaderComponent[]>> = {
  licensed: ['Cache-Control-Licensed', 'Vary'],
  cacheable: ['ETag', 'Cache-Control-Cacheable'],
  revalidate: ['Cache-Control-Revalidate'],
  report: ['Cache-Control-Report'],
};

/**
 * A 200 whose body is the named schema component (or, for the OpenAPI document itself, an inline schema).
 * `metered` (default true) adds the rate-limit headers; the operational probes are never metered.
 * `mediaType` is JSON unless told; `extraHeaders` are the route's own.
 */
export function okResponse(
  description: string,
  schema: SchemaComponent | Readonly<Record<string, unknown>>,
  caching: SuccessCaching,
  options: { metered?: boolean; mediaType?: 'application/json' | 'text/html'; extraHeaders?: readonly HeaderComponent[] } = {},
): object {
  const limits = options.metered === false ? [] : RATE_LIMIT_HEADERS;
  const compresses = compressesSuccess(options.metered === false ? 'probe' : caching === 'licensed' ? 'licensed' : 'public', caching);
  const coding: readonly HeaderComponent[] = !compresses ? [] : caching === 'licensed' ? ['Content-Encoding'] : ['Content-Encoding', 'Vary-Encoding'];
  return {
    description,
    headers: headerRefs('X-API-Version', 'X-Dataset-Revision', 'X-Request-ID', 'X-Content-Type-Options', ...limits, ...CACHING_HEADERS[caching], ...coding, ...(options.extraHeaders ?? [])),
    content: { [options.mediaType ?? 'application/json']: { schema: typeof schema === 'string' ? schemaRef(schema) : schema } },
  };
}

/** Describes a list of codes as Markdown bullets. */
function codeList(codes: readonly ErrorCode[]): string {
  return codes.map((code) => `- \`${code}\`: ${ERROR_CODE_MEANINGS[code]}.`).join('\n');
}

/** `schema` with its `code` narrowed to `codes`. */
function narrowed(schema: SchemaComponent, codes: readonly ErrorCode[]): object {
  return { allOf: [schemaRef(schema), { required: ['code'], properties: { code: { enum: codes } } }] };
}

/** The body schema of an error carrying one of `codes`: ApiError, or TrialScopeError for trial-scope codes. */
function errorSchema(codes: readonly ErrorCode[]): object {
  const trial = codes.filter((code) => TRIAL_SCOPE_CODES.includes(code));
  return trial.length === 0 ? narrowed('ApiError', codes) : { anyOf: [narrowed('TrialScopeError', trial), narrowed('ApiError', codes)] };
}

/** What an error response carries besides its body. */
export interface ErrorResponseOptions {
  /** The response was metered first, so the rate-limit headers are present. */
  metered?: boolean;
  /** `Retry-After` may accompany it. */
  retryAfter?: boolean;
  /** Extra header components (e.g. `Allow`). */
  extraHeaders?: readonly HeaderComponent[];
}

/** An error response: JSON body whose `code` is one of `codes`, listed with their meanings. */
export function errorResponse(summary: string, codes: readonly ErrorCode[], options: ErrorResponseOptions = {}): object {
  const headers: HeaderComponent[] = ['X-API-Version', 'X-Request-ID', 'X-Content-Type-Options', 'Cache-Control-Error'];
  if (options.metered) headers.push(...RATE_LIMIT_HEADERS);
  if (options.retryAfter) headers.push('Retry-After');
  headers.push(...(options.extraHeaders ?? []));
  return {
    description: `${summary} Branch on the status and \`code\`, never on the \`error\` text. Codes:\n\n${codeList(codes)}`,
    headers: headerRefs(...headers),
    content: { 'application/json': { schema: errorSchema(codes) } },
  };
}

/** `components.responses`: the responses every operation of a kind shares. */
export const openApiResponses = {
  NotModified: {
    description: '`If-None-Match` matched the current ETag: no body. Not an error.',
    headers: headerRefs('X-API-Version', 'X-Dataset-Revision', 'X-Request-ID', 'X-Content-Type-Options', 'ETag', 'Cache-Control-Cacheable', 'Vary-Encoding', ...RATE_LIMIT_HEADERS),
  },
  Unauthorized: errorResponse('The key is missing or invalid.', ['API_KEY_REQUIRED', 'INVALID_API_KEY'], { metered: true }),
  RateLimited: errorResponse(
    'A request limit is exhausted: the key\'s minute or day window on licensed routes, or the per-address window on keyless routes (and on 400/401/403 refusals of licensed routes, which are metered per address). Back off exponentially with jitter.',
    ['RATE_LIMITED'],
    { metered: true, retryAfter: true },
  ),
  MethodNotAllowed: errorResponse(
    'Returned for any method other than GET or HEAD on any path: the API is read-only.',
    ['METHOD_NOT_ALLOWED'],
    { extraHeaders: ['Allow'] },
  ),
  MalformedRequest: errorResponse(
    'The HTTP server could not parse the request (request line, header name or value, framing), and the connection is closed; or the request target holds a malformed percent-escape. Answered before any operation is chosen. `MALFORMED_URL` is metered per client address, as a path no operation matches is, and carries that window\'s rate-limit headers; `MALFORMED_REQUEST` carries none.',
    ['MALFORMED_REQUEST', 'MALFORMED_URL'],
    { metered: true },
  ),
  RequestTimeout: errorResponse('The request headers (10 s) or the whole request (30 s) did not arrive in time; the connection is closed.', ['REQUEST_TIMEOUT']),
  UriTooLong: errorResponse('The request target (path and query) is longer than 8,192 characters.', ['URI_TOO_LONG']),
  HeadersTooLarge: errorResponse('The request line and headers exceed 16 KiB; the connection is closed.', ['HEADERS_TOO_LARGE']),
  InternalError: errorResponse('An unexpected failure. Retry later; report the `X-Request-ID` to support.', ['INTERNAL_ERROR'], { metered: true }),
  LicensedInternalError: errorResponse(
    'An unexpected failure. Retry later; report the `X-Request-ID` to support.',
    ['INTERNAL_ERROR'],
    { metered: true, extraHeaders: ['Vary-Error'] },
  ),
} as const;

/** A `$ref` to a shared response. */
export function responseRef(name: keyof typeof openApiResponses): { $ref: string } {
  return { $ref: `#/components/responses/${name}` };
}
