/**
 * The strong ETag of each coding of one body: a strong tag names one representation (RFC 9110 8.8.3), and
 * the br and gzip bytes are not the identity bytes, so each gets the identity tag with the coding's name
 * inside the quotes (`"abc"`, `"abc-br"`, `"abc-gzip"`). If-None-Match matches any of them: the content is
 * one, whichever coding the client holds it in (the bug of suffixed tags that never revalidate).
 */
import { CONTENT_CODINGS, type ResponseCoding } from './negotiate-encoding.ts';

/** The tag of `etag`'s body in `coding` (`etag` is the identity body's strong tag, quoted). */
export function codingEtag(etag: string, coding: ResponseCoding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/** Which coding of the body of `etag` `opaqueTag` (an entity tag without its `W/`) names, if any. */
export function representationCoding(opaqueTag: string, etag: string): ResponseCoding | undefined {
  if (opaqueTag === etag) return 'identity';
  return CONTENT_CODINGS.find((coding) => opaqueTag === codingEtag(etag, coding));
}
