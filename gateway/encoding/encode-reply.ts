/**
 * The one step both adapters (gateway/routes/register-routes.ts, gateway/fast-path/serve-fast-path.ts) run
 * on a route's reply before writing it: the content coding the request negotiates, the stored form of the
 * body in it (gateway/encoding/encoded-bodies.ts), whether `If-None-Match` names that representation (a
 * 304), and the headers that follow from the choice.
 */
import type { RouteReply, RouteRequest } from '../pipeline/route-exchange.ts';
import { codingEtag, ifNoneMatchNames } from './coding-etag.ts';
import { MIN_COMPRESSED_BODY_BYTES, type EncodedBodies } from './encoded-bodies.ts';
import { negotiateEncoding, type ContentCoding, type ResponseCoding } from './negotiate-encoding.ts';

/** What an adapter sends for a reply, beyond the pipeline's other headers. */
export interface EncodedReply {
  /** 304 when the reply has an ETag and `If-None-Match` names the tag of the representation chosen here. */
  readonly status: 200 | 304;
  /** The bytes of a 200 in `coding`; undefined for a 304. */
  readonly body: Buffer | string | undefined;
  /** The length of `body` in bytes (its Content-Length), measured once; 0 for a 304. */
  readonly bodyBytes: number;
  readonly coding: ResponseCoding;
  /** `ETag` (the coding's, on a 304 too) and `Content-Encoding` (a 200 not in identity), in that order. */
  readonly headers: HeaderPairs;
  /**
   * True when the body can differ by Accept-Encoding (it is long enough to be compressed): the response then
   * carries `Vary: Accept-Encoding` (after `X-Api-Key` on licensed routes), whatever this client was sent.
   */
  readonly vary: boolean;
}

/** The token a varying response adds to `Vary`. */
export const VARY_ACCEPT_ENCODING = 'Accept-Encoding';

type HeaderPairs = readonly (readonly [string, string])[];

const NO_HEADERS: HeaderPairs = Object.freeze([]);

/** A compressed 200 without a tag sends one header, the same pair each time: one list per coding, not one per reply. */
const CODING_ONLY: Readonly<Record<ContentCoding, HeaderPairs>> = { br: [['Content-Encoding', 'br']], gzip: [['Content-Encoding', 'gzip']] };

// A tagged body's lists (its tag alone; its tag and coding), by identity tag, so a tagged reply concatenates
// no tag and allocates no list per request. Bounded: tags are the gateway's own, but a swap brings new ones.
const TAGGED_LIMIT = 1024;
const tagged = new Map<string, Partial<Record<ResponseCoding | `${ContentCoding}+encoding`, HeaderPairs>>>();

/** The headers of a reply with identity tag `etag` sent in `coding` (`compressed`: a 200 body in it). */
function taggedHeaders(etag: string, coding: ResponseCoding, compressed: boolean): HeaderPairs {
  let lists = tagged.get(etag);
  if (lists === undefined) {
    if (tagged.size >= TAGGED_LIMIT) tagged.clear();
    lists = {};
    tagged.set(etag, lists);
  }
  const slot = compressed && coding !== 'identity' ? (`${coding}+encoding` as const) : coding;
  let list = lists[slot];
  if (list === undefined) {
    const tag = codingEtag(etag, coding);
    list = compressed && coding !== 'identity' ? [['ETag', tag], ['Content-Encoding', coding]] : [['ETag', tag]];
    lists[slot] = list;
  }
  return list;
}

const byteLength = (body: Buffer | string) => (typeof body === 'string' ? Buffer.byteLength(body) : body.length);

/**
 * Chooses the coding of `reply` for `request` and the bytes and headers that go with it; `compresses` is
 * the route's compressesSuccess (a route that never compresses sends its body as it is, without Vary).
 * The representation selected is the one a 200 would send now (a coding whose form is not made yet is not
 * selected), and only its tag in `If-None-Match` makes a 304, which carries that tag.
 */
export function encodeReply(reply: RouteReply, request: RouteRequest, encodings: EncodedBodies, compresses: boolean): EncodedReply {
  const source = reply.body;
  const sourceBytes = byteLength(source);
  const vary = compresses && sourceBytes >= MIN_COMPRESSED_BODY_BYTES;
  let coding: ResponseCoding = 'identity';
  let body: Buffer | string | undefined = source;
  if (vary) {
    const wanted = negotiateEncoding(request.header('accept-encoding'));
    const form = wanted === 'identity' ? undefined : encodings.lookup(request.snapshot, source, wanted);
    if (form !== undefined && wanted !== 'identity') {
      coding = wanted;
      body = form;
    }
  }
  const ifNoneMatch = reply.etag === undefined ? '' : request.header('if-none-match');
  const status = ifNoneMatch !== '' && ifNoneMatchNames(ifNoneMatch, codingEtag(reply.etag as string, coding)) ? 304 : 200;
  if (status === 304) body = undefined;
  const compressed = body !== undefined && coding !== 'identity';
  // Most answers (every program collection and record) have no tag: they share one empty list, or their coding's.
  let headers: HeaderPairs = NO_HEADERS;
  if (reply.etag !== undefined) headers = taggedHeaders(reply.etag, coding, compressed);
  else if (compressed) headers = CODING_ONLY[coding as ContentCoding];
  const bodyBytes = body === undefined ? 0 : body === source ? sourceBytes : byteLength(body);
  return { status, body, bodyBytes, coding, headers, vary };
}
