/**
 * The two small values every route step and handler works on, so that none of them knows Koa or
 * node:http: a RouteRequest in, a RouteReply out. The Koa adapter (gateway/routes/register-routes.ts) and
 * the fast path (gateway/fast-path/serve-fast-path.ts) each build the request from their own request
 * object and write the reply back; gateway/pipeline/route-chain.ts runs the steps between.
 */
import type { ResponseCoding } from '../encoding/negotiate-encoding.ts';
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
 * A route's answer. A 200 carries JSON bytes (or, outside the JSON contract, bytes of its `contentType`); a 304 (a matching `If-None-Match` on the ETag allowlist)
 * carries none. `headers` are the handler's own; caching and versioning headers are the pipeline's, from
 * the route table entry and the served revision, and so are the content coding's (gateway/encoding/encode-reply.ts):
 * `ETag` among them, since each coding of a body is its own representation with its own tag.
 */
export type RouteReply =
  | {
    readonly status: 200;
    readonly body: Buffer | string;
    readonly headers?: HeaderList;
    /** The body's media type when it is not JSON (`/docs` is HTML); sent as given. */
    readonly contentType?: string;
    /** The strong ETag of the body as it is (ETag allowlist, spec 4.4); a compressed form's is derived from it. */
    readonly etag?: string;
  }
  | {
    readonly status: 304;
    readonly headers: HeaderList;
    /** The identity body's strong ETag, which the client's tag named in one of its codings. */
    readonly etag: string;
    /** The body a 200 would have sent, so the 304 carries the Vary of that body. */
    readonly representation: Buffer | string;
    /**
     * The coding of the tag the client's If-None-Match named: the 304 confirms that representation, so it
     * carries that tag. Unset for `*`: then the tag of the coding a 200 would send now.
     */
    readonly heldCoding?: ResponseCoding;
  };

/** A route's handler: a plain function from the request to its reply; it throws an ApiError to refuse. */
export interface RouteHandler {
  (request: RouteRequest): RouteReply;
  /**
   * The reply when it is already at hand (a stored page), else undefined; for the fast path, which answers
   * ahead of Koa only what costs no storage work. Handlers without it are at hand in full (precomputed bytes).
   */
  readonly atHand?: (request: RouteRequest) => RouteReply | undefined;
}
