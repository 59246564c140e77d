/**
 * The two small values every route step and handler works on, so that none of them knows Koa or
 * node:http: a RouteRequest in, a RouteReply out. The Koa adapter (gateway/routes/register-routes.ts) and
 * the fast path (gateway/fast-path/serve-fast-path.ts) each build the request from their own request
 * object and write the reply back; gateway/pipeline/route-chain.ts runs the steps between.
 */
import type { LicensedKey } from '../keys/key-lookup.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';

/** Path parameters as the router matched them (`:city` -> `params.city`). */
export type PathParameters = Record<string, string | undefined>;

/** Response headers as name-value pairs, in the order they are sent. */
export type HeaderList = readonly (readonly [string, string])[];

/**
 * Where a step writes a response header it decides before the reply exists (the rate-limit fields). The
 * fast path hands over its flat header array itself (`push(name, value)` appends the pair), so metering
 * allocates no writer per request; the Koa adapter passes an object that sets the header on its context.
 */
export interface HeaderSink {
  push(name: string, value: string): unknown;
}

/** What a route step may read of a request. */
export interface RouteRequest {
  readonly method: string;
  readonly params: PathParameters;
  /** The raw query string (after `?`); a step that reads it parses it with http/parse-query.ts, bounded. */
  readonly querystring: string;
  /** The snapshot pinned for this request: a hot swap never changes it midway. */
  readonly snapshot: Snapshot;
  /** A request header by lower-case name, or '' when absent (as Koa's `ctx.get`). */
  header(name: string): string;
  /** The client address metering counts (X-Forwarded-For only behind a trusted proxy). */
  clientAddress(): string;
  /** The key the licensed access step admitted and metered; unset on keyless routes. */
  key?: LicensedKey;
}

/**
 * A route's answer: JSON bytes (or, outside the JSON contract, bytes of its `contentType`). `headers` are
 * the handler's own; caching and versioning headers are the pipeline's, from the route table entry and the
 * served revision, and so are the content coding's (gateway/encoding/encode-reply.ts): `ETag` among them,
 * since each coding of a body is its own representation with its own tag. Whether a reply with an `etag`
 * goes as a 304 is decided there too, once the coding is chosen: `If-None-Match` is held against the tag of
 * the representation the request selects, not against the body in any coding.
 */
export interface RouteReply {
  readonly status: 200;
  readonly body: Buffer | string;
  /** Sent with the body; a 304 sends none of them (the client keeps those of the copy it holds). */
  readonly headers?: HeaderList;
  /** The body's media type when it is not JSON (`/docs` is HTML); sent as given. */
  readonly contentType?: string;
  /** The strong ETag of the body as it is (ETag allowlist, spec 4.4); a compressed form's is derived from it. */
  readonly etag?: string;
}

/** A route's handler: a plain function from the request to its reply; it throws an ApiError to refuse. */
export interface RouteHandler {
  (request: RouteRequest): RouteReply;
  /**
   * The reply when it is already at hand (a stored page), else undefined; for the fast path, which answers
   * ahead of Koa only what costs no storage work. Handlers without it are at hand in full (precomputed bytes).
   */
  readonly atHand?: (request: RouteRequest) => RouteReply | undefined;
}
