/**
 * The headers a fast 200 sends after its metering's, made once per body length, route and revision rather than
 * pushed pair by pair per request: the handler's own headers, the route's caching headers, the coding's
 * (`ETag`, `Content-Encoding`), `Content-Type`, `Content-Length` (a number written as text) and
 * `X-Dataset-Revision`. All of them are a function of the route, the body's length, the reply's headers,
 * media type and tag, the coding and the served revision; a tail is reused only while every one of these is
 * the one it was made for, and made again otherwise (a swap to another revision, another body's tag).
 */
import { VARY_ACCEPT_ENCODING, type EncodedReply } from '../encoding/encode-reply.ts';
import type { HeaderList, RouteReply } from '../pipeline/route-exchange.ts';
import { JSON_CONTENT_TYPE } from '../pipeline/json-reply.ts';
import { appendVary } from './append-vary.ts';

/** A 200 reply, as the fast path writes it. */
export type SuccessReply = RouteReply;

/** What a tail was made for; all must match for it to be reused. */
interface SuccessTail {
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
 * Finds or makes the tail of a 200 on one route; `varyInTail`: the response varies by Accept-Encoding and
 * the headers before the tail hold no Vary field to add it to, so the tail carries it.
 */
export type SuccessTails = (reply: SuccessReply, encoded: EncodedReply, revision: string, varyInTail: boolean) => readonly string[];

/**
 * The tails of one route (`cachingTail`: its flat caching headers), by the body's length: nothing else of
 * the body is in a tail, so bodies of the same length share one, and no map is held by the bodies
 * themselves (a weak map keyed by every new filtered body measured slower than the tail it saves, BENCHMARKS.md).
 * A length whose tail differs in anything else is made again. At most `maxLengths`, then it starts over.
 */
export function createSuccessTails(cachingTail: readonly string[], maxLengths = 1024): SuccessTails {
  const tails = new Map<number, SuccessTail>();
  return (reply, encoded, revision, varyInTail) => {
    const known = tails.get(encoded.bodyBytes);
    if (
      known !== undefined && known.revision === revision && known.replyHeaders === reply.headers &&
      known.contentType === reply.contentType && known.etag === reply.etag && known.coding === encoded.coding && known.varyInTail === varyInTail
    ) {
      return known.headers;
    }
    const headers = successTail(cachingTail, reply, encoded, revision, varyInTail);
    if (tails.size >= maxLengths) tails.clear();
    tails.set(encoded.bodyBytes, { revision, replyHeaders: reply.headers, contentType: reply.contentType, etag: reply.etag, coding: encoded.coding, varyInTail, headers });
    return headers;
  };
}

/**
 * Appends what a 200 and a 304 both send after metering's headers, in the order the fast path has always
 * sent it: the handler's own headers (a 200's only), the route's caching headers, the coding's (`ETag`,
 * `Content-Encoding`), and `Vary` when `varyInTail`.
 */
export function pushReplyHeaders(headers: string[], cachingTail: readonly string[], reply: RouteReply, encoded: EncodedReply, varyInTail: boolean): void {
  if (encoded.status === 200) for (const [name, value] of reply.headers ?? []) headers.push(name, value);
  headers.push(...cachingTail);
  for (const [name, value] of encoded.headers) headers.push(name, value);
  if (varyInTail) appendVary(headers, VARY_ACCEPT_ENCODING);
}

/** The tail of a 200 made afresh: pushReplyHeaders's, then the body's type and length and the revision. */
export function successTail(cachingTail: readonly string[], reply: SuccessReply, encoded: EncodedReply, revision: string, varyInTail: boolean): readonly string[] {
  const headers: string[] = [];
  pushReplyHeaders(headers, cachingTail, reply, encoded, varyInTail);
  headers.push('Content-Type', reply.contentType ?? JSON_CONTENT_TYPE, 'Content-Length', String(encoded.bodyBytes), 'X-Dataset-Revision', revision);
  // Not frozen: copying out of a frozen array takes V8's slow path (BENCHMARKS.md, fourth round).
  return headers;
}
