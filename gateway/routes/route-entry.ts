/** The shape of one entry of the route table (route-table.ts) and what its handler is given. */
import type { ScopeRule } from '../access/licensed-access.ts';
import type { ErrorCode } from '../http/api-error.ts';
import type { HeaderComponent } from '../openapi/openapi-headers.ts';
import type { ParameterComponent } from '../openapi/openapi-parameters.ts';
import type { SchemaComponent } from '../openapi/openapi-schemas.ts';
import type { Deprecation } from '../pipeline/deprecation-headers.ts';
import type { RouteHandler } from '../pipeline/route-exchange.ts';
import type { AccessClass } from '../vocabulary/access-class.ts';
import type { SuccessCaching } from '../vocabulary/success-caching.ts';
import type { RouteDependencies } from './route-dependencies.ts';

export type { PathParameters } from '../pipeline/route-exchange.ts';

/** Builds a route's handler once per app, from the dependencies every handler shares. */
export type RouteHandlerFactory = (deps: RouteDependencies) => RouteHandler;

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
  /**
   * Set when the fast path may answer the route ahead of Koa: its handler is synchronous and cheap before
   * metering (precomputed or cached bytes, a bounded query parse), or says through `atHand` when it is not.
   */
  fastPath?: true;
  /** Set once the route is deprecated (spec 9.4): its responses carry the headers, its operation `deprecated`. */
  deprecation?: Deprecation;
  operation: RouteOperation;
}

/** The route table's type: order matters where templates overlap (a literal before the template it shadows). */
export type RouteTable = readonly RouteEntry[];
