/** Replies of JSON bytes, and the replies of the ETag allowlist (spec 4.4). */
import type { RouteReply } from './route-exchange.ts';

/** The Content-Type of every JSON body, as Koa writes `ctx.type = 'application/json'`. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A 200 of bytes that are already JSON; nothing is serialized here. */
export function jsonReply(body: Buffer | string): RouteReply {
  return { status: 200, body };
}

/**
 * An ETag-allowlisted document: its body with its strong `ETag`. Its Cache-Control comes from the route's
 * `cacheable` policy in the route table; its ETag header, and the 304 a matching `If-None-Match` gets, are
 * the content coding's (gateway/encoding/encode-reply.ts).
 */
export function cacheableReply(document: { body: Buffer | string; etag: string }): RouteReply {
  return { status: 200, body: document.body, etag: document.etag };
}
