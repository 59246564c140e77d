/**
 * The strong ETag of each coding of one body: a strong tag names one representation (RFC 9110 8.8.3), and
 * the br and gzip bytes are not the identity bytes, so each gets the identity tag with the coding's name
 * inside the quotes (`"abc"`, `"abc-br"`, `"abc-gzip"`). A conditional request is answered for the
 * representation it selects: a tag of another coding does not match, so a cache holding the identity bytes
 * under a request for br is sent the br bytes rather than told its copy is current.
 */
import type { ResponseCoding } from './negotiate-encoding.ts';

/** The tag of `etag`'s body in `coding` (`etag` is the identity body's strong tag, quoted). */
export function codingEtag(etag: string, coding: ResponseCoding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * Whether an `If-None-Match` field ('' when absent) matches `tag`: `*`, or `tag` among its entity tags
 * compared weakly (RFC 9110 13.1.2: `W/` is ignored).
 */
export function ifNoneMatchNames(ifNoneMatch: string, tag: string): boolean {
  if (ifNoneMatch === '') return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const candidate of ifNoneMatch.split(',')) {
    const trimmed = candidate.trim();
    if ((trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === tag) return true;
  }
  return false;
}
