/**
 * The responses of a deprecated operation (spec 9.4): each one the operation answers declares `Deprecation`,
 * `Sunset` and `Link`, as the route's own step sends them (gateway/pipeline/deprecation-headers.ts); the
 * refusals answered before any operation is chosen belong to no operation and declare none.
 */
import { DEPRECATION_HEADERS, headerRefs, type HeaderRefs } from './openapi-headers.ts';
import { openApiResponses } from './openapi-responses.ts';

type SharedResponse = keyof typeof openApiResponses;

/** Shared responses of what is refused before a route is chosen (REFUSED_BEFORE_ANY_ROUTE): the HTTP server's and the request guards'. */
const BEFORE_ANY_OPERATION: ReadonlySet<SharedResponse> = new Set(['MalformedRequest', 'MethodNotAllowed', 'RequestTimeout', 'UriTooLong', 'HeadersTooLarge']);

const SHARED_PREFIX = '#/components/responses/';

/** The shared response a `$ref` names, or undefined for a response written out. */
function sharedResponseOf(response: object): SharedResponse | undefined {
  const ref = (response as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string' || !ref.startsWith(SHARED_PREFIX)) return undefined;
  const name = ref.slice(SHARED_PREFIX.length);
  if (!(name in openApiResponses)) throw new Error(`openapi: unknown shared response ${ref}`);
  return name as SharedResponse;
}

/** One response with the deprecation headers declared, unless it is answered before any operation is chosen. */
function declareDeprecation(response: object): object {
  const shared = sharedResponseOf(response);
  if (shared !== undefined && BEFORE_ANY_OPERATION.has(shared)) return response;
  // A Reference Object cannot add headers, so a shared response the operation answers is written out here.
  const own: { headers?: HeaderRefs } = shared === undefined ? response : openApiResponses[shared];
  return { ...own, headers: { ...own.headers, ...headerRefs(...DEPRECATION_HEADERS) } };
}

/** A deprecated operation's `responses`, in the same order, each it answers declaring the deprecation headers. */
export function deprecatedResponses(responses: Readonly<Record<string, object>>): Record<string, object> {
  return Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, declareDeprecation(response)]));
}
