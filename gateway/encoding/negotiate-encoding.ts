/**
 * The content coding of a response (RFC 9110 sections 8.4 and 12.5.3), chosen from the request's
 * `Accept-Encoding` by `negotiator`, the parser Koa's own `ctx.acceptsEncodings` runs: q-values,
 * `identity;q=0`, `*` and a coding's `q=0` are read as the RFC says, by code many servers share.
 */
import Negotiator from 'negotiator';

/** The codings the gateway stores bodies in, in the order it prefers them when the client weighs them alike. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;

/** A stored compressed form. */
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** What a response is sent in: a stored coding or the body as it is. */
export type ResponseCoding = ContentCoding | 'identity';

const OFFERED: readonly ResponseCoding[] = [...CONTENT_CODINGS, 'identity'];

// Clients send a handful of distinct headers; the answer of each is remembered (bounded: the header is the
// client's, so a flood of distinct values only recycles this table).
const MEMO_LIMIT = 256;
const memo = new Map<string, ResponseCoding>();

/**
 * The coding to send for an `Accept-Encoding` header ('' when absent). Identity when the client accepts
 * nothing offered: RFC 9110 12.5.3 allows sending it rather than a 406, and a JSON API client that refused
 * identity is better served by readable bytes than by an error.
 */
export function negotiateEncoding(acceptEncoding: string): ResponseCoding {
  const known = memo.get(acceptEncoding);
  if (known !== undefined) return known;
  const preferred = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encodings([...OFFERED])[0];
  const coding = (OFFERED as readonly string[]).includes(preferred ?? '') ? (preferred as ResponseCoding) : 'identity';
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(acceptEncoding, coding);
  return coding;
}
