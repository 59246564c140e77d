/**
 * The one step both adapters (gateway/routes/register-routes.ts, gateway/fast-path/serve-fast-path.ts) run
 * on a route's 200 or 304 before writing it: the content coding the request negotiates, the stored form of
 * the body in it (gateway/encoding/encoded-bodies.ts), and the headers that follow from the choice.
 */
import type { RouteReply, RouteRequest } from '../pipeline/route-exchange.ts';
import { codingEtag } from './coding-etag.ts';
import { MIN_COMPRESSED_BODY_BYTES, type EncodedBodies } from './encoded-bodies.ts';
import { negotiateEncoding, type ResponseCoding } from './negotiate-encoding.ts';

/** What an adapter sends for a reply, beyond the pipeline's other headers. */
export interface EncodedReply {
  /** The bytes of a 200 in `coding`; undefined for a 304. */
  readonly body: Buffer | string | undefined;
  /** The length of `body` in bytes (its Content-Length), measured once; 0 for a 304. */
  readonly bodyBytes: number;
  readonly coding: ResponseCoding;
  /** `ETag` (the coding's) and `Content-Encoding` (a 200 not in identity), in that order. */
  readonly headers: readonly (readonly [string, string])[];
  /**
   * True when the body can differ by Accept-Encoding (it is long enough to be compressed): the response then
   * carries `Vary: Accept-Encoding` (after `X-Api-Key` on licensed routes), whatever this client was sent.
   */
  readonly vary: boolean;
}

/** The token a varying response adds to `Vary`. */
export const VARY_ACCEPT_ENCODING = 'Accept-Encoding';

const NO_HEADERS: readonly (readonly [string, string])[] = Object.freeze([]);

const byteLength = (body: Buffer | string) => (typeof body === 'string' ? Buffer.byteLength(body) : body.length);

/**
 * Chooses the coding of `reply` for `request` and the bytes and headers that go with it; `compresses` is
 * the route's compressesSuccess (a route that never compresses sends its body as it is, without Vary).
 */
export function encodeReply(reply: RouteReply, request: RouteRequest, encodings: EncodedBodies, compresses: boolean): EncodedReply {
  const source = reply.status === 200 ? reply.body : reply.representation;
  const sourceBytes = byteLength(source);
  const vary = compresses && sourceBytes >= MIN_COMPRESSED_BODY_BYTES;
  let coding: ResponseCoding = 'identity';
  let body = reply.status === 200 ? reply.body : undefined;
  if (vary) {
    const wanted = negotiateEncoding(request.header('accept-encoding'));
    const form = wanted === 'identity' ? undefined : encodings.lookup(request.snapshot, source, wanted);
    if (form !== undefined && wanted !== 'identity') {
      coding = wanted;
      if (body !== undefined) body = form;
    }
  }
  if (reply.status === 304 && reply.heldCoding !== undefined) coding = reply.heldCoding;
  const compressed = body !== undefined && coding !== 'identity';
  // Most answers (every program collection and record) have neither header: they share one empty list.
  let headers: readonly (readonly [string, string])[] = NO_HEADERS;
  if (reply.etag !== undefined || compressed) {
    const list: [string, string][] = [];
    if (reply.etag !== undefined) list.push(['ETag', codingEtag(reply.etag, coding)]);
    if (compressed) list.push(['Content-Encoding', coding]);
    headers = list;
  }
  const bodyBytes = body === undefined ? 0 : body === source ? sourceBytes : byteLength(body);
  return { body, bodyBytes, coding, headers, vary };
}
