/** Replies of JSON bytes, and the conditional-GET rule of the ETag allowlist (spec 4.4). */
import { namesRepresentation } from '../encoding/coding-etag.ts';
import type { RouteReply, RouteRequest } from './route-exchange.ts';

/** The Content-Type of every JSON body, as Koa writes `ctx.type = 'application/json'`. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A 200 of bytes that are already JSON; nothing is serialized here. */
export function jsonReply(body: Buffer | string): RouteReply {
  return { status: 200, body };
}

/**
 * An ETag-allowlisted document: strong `ETag`, and 304 with no body when `If-None-Match` names it in any of
 * its codings (weak comparison, as RFC 9110 prescribes for If-None-Match; `*` matches). Its Cache-Control
 * comes from the route's `cacheable` policy in the route table; its ETag header is the content coding's
 * (gateway/encoding/encode-reply.ts).
 */
export function cacheableReply(request: RouteRequest, document: { body: Buffer | string; etag: string }): RouteReply {
  if (ifNoneMatchHits(request.header('if-none-match'), document.etag)) return { status: 304, headers: [], etag: document.etag, representation: document.body };
  return { status: 200, body: document.body, etag: document.etag };
}

function ifNoneMatchHits(header: string, etag: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((candidate) => namesRepresentation(opaque(candidate), etag));
}
