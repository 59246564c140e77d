/** The shape of one entry of the route table (route-table.ts) and what its handler is given. */
import type { Middleware } from 'koa';
import type { ScopeRule } from '../access/licensed-access.ts';
import type { ErrorCode } from '../http/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import type { HeaderComponent } from '../openapi/openapi-headers.ts';
import type { ParameterComponent } from '../openapi/openapi-parameters.ts';
import type { SuccessCaching } from '../openapi/openapi-responses.ts';
import type { SchemaComponent } from '../openapi/openapi-schemas.ts';
import type { ProgramBodies } from '../programs/program-bodies.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import type { ProgramFilters } from '../programs/parse-program-filters.ts';
import type { RouteDependencies } from './route-dependencies.ts';

/**
 * How a route is reached: `public` is keyless and metered per client address; `licensed` needs a key and
 * runs key, tier, scope and rate limit (STYLE 7); `probe` is keyless and never metered (load balancers).
 */
export type AccessClass = 'public' | 'licensed' | 'probe';

/** Builds a route's Koa handler once per app, from the dependencies every handler shares. */
export type RouteHandlerFactory = (deps: RouteDependencies) => Middleware<GatewayState>;

/** Path parameters as @koa/router hands them to a handler. */
export type PathParameters = Record<string, string | undefined>;

/**
 * The body of a route the fast path may answer ahead of Koa: synchronous, throws (an ApiError) for any
 * request it would refuse, so the fast path can decline it to Koa untouched. `filters` parses the query
 * string only when the route reads it.
 */
export type FastAnswer = (bodies: ProgramBodies, snapshot: Snapshot, params: PathParameters, filters: () => ProgramFilters) => Buffer;

/** The documentation of a route's one operation, for the OpenAPI `paths` (openapi/openapi-paths.ts). */
export interface RouteOperation {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** Parameters beyond `X-Request-ID` (and `If-None-Match`, which the `cacheable` policy adds). */
  parameters?: readonly ParameterComponent[];
  /**
   * The 200's description and schema (a component name or an inline schema), and its media type: JSON
   * unless told (`/docs` answers HTML, outside the JSON contract).
   */
  ok: {
    description: string;
    schema: SchemaComponent | Readonly<Record<string, unknown>>;
    mediaType?: 'text/html';
    /** Headers of the 200 beyond those of its access class and caching policy. */
    headers?: readonly HeaderComponent[];
  };
  /** Every other status the route itself answers (OpenAPI response objects); shared statuses are added. */
  responses?: Readonly<Record<string, object>>;
  /** Licensed routes: 403 codes beyond the key refusals. */
  scopeRefusals?: readonly ErrorCode[];
  /** Licensed routes: 503 codes of the route's own, beyond the storage outages. */
  unavailable?: readonly ErrorCode[];
}

/** One route: everything the router, the fast path, the OpenAPI document and the tests need to know. */
export interface RouteEntry {
  /** Methods served; @koa/router answers HEAD wherever GET is registered. */
  methods: readonly ['GET'];
  /** The @koa/router template (`:name` marks a parameter); also the route's log and metrics label. */
  path: string;
  access: AccessClass;
  /** Licensed routes: what the key must cover beyond being valid. */
  scope?: ScopeRule;
  /** The success response's caching policy (spec 4.4): `cacheable` is the ETag allowlist. */
  caching: SuccessCaching;
  handler: RouteHandlerFactory;
  /** Set when the fast path answers the route ahead of Koa, with the body it sends. */
  fastAnswer?: FastAnswer;
  operation: RouteOperation;
}

/** The route table's type: order matters where templates overlap (a literal before the template it shadows). */
export type RouteTable = readonly RouteEntry[];
