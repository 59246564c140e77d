/**
 * The headers a fast 200 sends after its metering's, made once per body, route and revision rather than
 * pushed pair by pair per request: the handler's own headers, the route's caching headers, the coding's
 * (`ETag`, `Content-Encoding`), `Content-Type`, `Content-Length` (a number written as text) and
 * `X-Dataset-Revision`. All of them are a function of the bytes sent, the route, the reply's headers,
 * media type and tag, and the served revision; a tail is reused only while every one of these is the one it
 * was made for, and made again otherwise (a swap to another revision, the same bytes served by another route).
 */
import { VARY_ACCEPT_ENCODING, type EncodedReply } from '../encoding/encode-reply.ts';
import type { HeaderList, RouteReply } from '../pipeline/route-exchange.ts';
import { JSON_CONTENT_TYPE } from '../pipeline/json-reply.ts';
import { appendVary } from './append-vary.ts';

/** A 200 reply, as the fast path writes it. */
export type SuccessReply = Extract<RouteReply, { status: 200 }>;

/** What a tail was made for; all must match for it to be reused. */
interface SuccessTail {
  readonly route: object;
  readonly revision: string;
  readonly replyHeaders: HeaderList | undefined;
  readonly contentType: string | undefined;
  readonly etag: string | undefined;
  readonly coding: string;
  readonly varyInTail: boolean;
  /** Flat name, value, name, value, ... */
  readonly headers: readonly string[];
}

/**
 * Finds or makes the tail of a 200: `route` is the fast route (identity), `cachingTail` its flat caching
 * headers; `varyInTail`: the response varies by Accept-Encoding and the headers before the tail hold no Vary
 * field to add it to, so the tail carries it.
 */
export type SuccessTails = (route: object, cachingTail: readonly string[], reply: SuccessReply, encoded: EncodedReply, revision: string, varyInTail: boolean) => readonly string[];

/**
 * Tails by the bytes they are sent with, held weakly, so a body the caches dropped takes its tail with it.
 * A body given as a string (not cached bytes) gets a fresh tail every time.
 */
export function createSuccessTails(): SuccessTails {
  const tails = new WeakMap<Buffer, SuccessTail>();
  return (route, cachingTail, reply, encoded, revision, varyInTail) => {
    const { body } = encoded;
    const bytes = typeof body === 'string' || body === undefined ? undefined : body;
    const known = bytes === undefined ? undefined : tails.get(bytes);
    if (
      known !== undefined && known.route === route && known.revision === revision && known.replyHeaders === reply.headers &&
      known.contentType === reply.contentType && known.etag === reply.etag && known.coding === encoded.coding && known.varyInTail === varyInTail
    ) {
      return known.headers;
    }
    const headers = successTail(cachingTail, reply, encoded, revision, varyInTail);
    if (bytes !== undefined) {
      tails.set(bytes, { route, revision, replyHeaders: reply.headers, contentType: reply.contentType, etag: reply.etag, coding: encoded.coding, varyInTail, headers });
    }
    return headers;
  };
}

/** The tail of a 200 made afresh, in the order the fast path has always sent it. */
export function successTail(cachingTail: readonly string[], reply: SuccessReply, encoded: EncodedReply, revision: string, varyInTail: boolean): readonly string[] {
  const headers: string[] = [];
  for (const [name, value] of reply.headers ?? []) headers.push(name, value);
  headers.push(...cachingTail);
  for (const [name, value] of encoded.headers) headers.push(name, value);
  if (varyInTail) appendVary(headers, VARY_ACCEPT_ENCODING);
  headers.push('Content-Type', reply.contentType ?? JSON_CONTENT_TYPE, 'Content-Length', String(encoded.bodyBytes), 'X-Dataset-Revision', revision);
  return Object.freeze(headers);
}
