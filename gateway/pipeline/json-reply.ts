/** Replies of JSON bytes, and the conditional-GET rule of the ETag allowlist (spec 4.4). */
import { representationCoding } from '../encoding/coding-etag.ts';
import type { ResponseCoding } from '../encoding/negotiate-encoding.ts';
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
  const held = heldRepresentation(request.header('if-none-match'), document.etag);
  if (held !== undefined) return { status: 304, headers: [], etag: document.etag, representation: document.body, ...(held === '*' ? {} : { heldCoding: held }) };
  return { status: 200, body: document.body, etag: document.etag };
}

/** Which coding's tag `If-None-Match` names (the first it lists), `*` for any, or undefined when none matches. */
function heldRepresentation(header: string, etag: string): ResponseCoding | '*' | undefined {
  if (header === '') return undefined;
  if (header.trim() === '*') return '*';
  for (const candidate of header.split(',')) {
    const coding = representationCoding(candidate.trim().replace(/^W\//, ''), etag);
    if (coding !== undefined) return coding;
  }
  return undefined;
}
