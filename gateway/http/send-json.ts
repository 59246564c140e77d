/** Sends precomputed JSON bytes, and the conditional-GET rule of the ETag allowlist (spec 4.4). */
import type { Context } from 'koa';

/** The Content-Type of every JSON body, as Koa writes `ctx.type = 'application/json'`. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sends bytes that are already JSON; nothing is serialized here. */
export function sendJson(ctx: Context, body: Buffer | string): void {
  ctx.type = 'application/json';
  ctx.body = body;
}

/**
 * Sends an ETag-allowlisted public document: strong `ETag`, and 304 with no body when `If-None-Match`
 * names it (weak comparison, as RFC 9110 prescribes for If-None-Match; `*` matches). JSON unless told
 * (`/docs` is the one HTML document).
 */
export function sendCacheable(ctx: Context, document: { body: Buffer | string; etag: string }, type = 'application/json'): void {
  ctx.set('ETag', document.etag);
  ctx.set('Cache-Control', 'public, max-age=300, must-revalidate');
  if (ifNoneMatchHits(ctx.get('if-none-match'), document.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = document.body;
}

function ifNoneMatchHits(header: string, etag: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((candidate) => opaque(candidate) === opaque(etag));
}
