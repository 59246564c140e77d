/**
 * The shortest start of a captured body, as received (content-encoding kept), whose decoding reaches the point
 * where the link rules' prefix reader stops, so an unchanged page read in part archives the same bytes each week.
 */
import { promisify } from 'node:util';
import { brotliDecompress, constants, gunzip, inflate } from 'node:zlib';
import type { BodyPrefixOptions } from './read-body-prefix.ts';

/**
 * Returns the raw byte count whose decoding first holds a match of `stop.stopAt` within its first `stop.cap`
 * bytes, or `stop.cap` decoded bytes; undefined when all of `raw` does not get there (a deadline, a cut
 * connection) or its coding is not read. Depends on the bytes only, never on how they arrived in chunks.
 * Each probe decodes on libuv's thread pool: a page that hides its h1 past a megabyte of gzip costs tenths of a
 * second of decoding, which must not hold the run's event loop.
 */
export async function minimalPayloadPrefix(raw: Uint8Array, contentEncoding: string | undefined, stop: BodyPrefixOptions): Promise<number | undefined> {
  const decodeToCap = decoderOf(contentEncoding, stop.cap + SLACK);
  if (decodeToCap === undefined) return undefined;
  // Decoded output only grows with the input, and the h1 is usually near the top: gallop from a small start
  // until the decoding gets where the reader stops, which then says how many decoded bytes that is.
  let low = 0;
  let high = Math.min(raw.byteLength, 4096);
  let target: number | undefined;
  for (;;) {
    let decoded = await decodeToCap(raw.subarray(0, high));
    if (decoded === 'over') {
      // Past the bound the output is lost: go back to the shortest start that decodes a whole cap's worth.
      high = await shortestReaching(raw, low, high, decodeToCap, stop.cap);
      decoded = await decodeToCap(raw.subarray(0, high));
      if (decoded === 'over') {
        // One input byte took the output from short of the cap to past the bound: the marker can be read
        // only if it came before that byte; otherwise the bytes say nothing certain, and all are kept.
        target = stopOf(await decodeToCap(raw.subarray(0, high - 1)), stop);
        if (target === undefined) return undefined;
        high -= 1;
        break;
      }
    }
    target = stopOf(decoded, stop);
    if (target !== undefined) break;
    if (high === raw.byteLength) return undefined;
    low = high + 1;
    high = Math.min(raw.byteLength, high * 2);
  }
  // Then halve between the last probe that fell short and the first that got there, each probe decoding no
  // further than the target.
  return shortestReaching(raw, low, high, decoderOf(contentEncoding, target + SLACK)!, target);
}

/** The shortest length in [low, high] whose decoding holds `count` bytes (`high` is known to). */
async function shortestReaching(raw: Uint8Array, low: number, high: number, decode: Decode, count: number): Promise<number> {
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const decoded = await decode(raw.subarray(0, middle));
    if (decoded === 'over' || (decoded !== undefined && decoded.byteLength >= count)) high = middle;
    else low = middle + 1;
  }
  return high;
}

/** Decoded bytes up to where the reader stops (the end of the first marker, or the cap), once `decoded` shows them. */
function stopOf(decoded: Uint8Array | 'over' | undefined, stop: BodyPrefixOptions): number | undefined {
  if (decoded === undefined) return undefined;
  if (decoded === 'over') return undefined;
  const match = stop.stopAt.exec(Buffer.from(decoded.buffer, decoded.byteOffset, Math.min(decoded.byteLength, stop.cap)).toString('latin1'));
  if (match !== null) return match.index + match[0].length;
  return decoded.byteLength >= stop.cap ? stop.cap : undefined;
}

// zlib refuses to grow its output buffer past the bound before the output itself gets there, so a bound just
// at the target would call a prefix 'over' that decodes short of it.
const SLACK = 64 * 1024;

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const brotliDecompressAsync = promisify(brotliDecompress);

type Decode = (bytes: Uint8Array) => Promise<Uint8Array | 'over' | undefined>;

/**
 * A one-shot decoder that yields what a cut-short stream holds so far (`finishFlush`), bounded to about
 * `cap` output bytes ('over' past it) so no compression ratio makes it costly; undefined for a coding not read.
 */
function decoderOf(contentEncoding: string | undefined, cap: number): Decode | undefined {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  const bounded = (decode: (bytes: Uint8Array) => Promise<Buffer>): Decode => async (bytes) => {
    try {
      return await decode(bytes);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'over';
      return undefined;
    }
  };
  const zlibOptions = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap };
  switch (coding) {
    case '':
    case 'identity': return async (bytes) => bytes.subarray(0, cap);
    case 'gzip':
    case 'x-gzip': return bounded((bytes) => gunzipAsync(bytes, zlibOptions));
    case 'deflate': return bounded((bytes) => inflateAsync(bytes, zlibOptions));
    case 'br': return bounded((bytes) => brotliDecompressAsync(bytes, { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: cap }));
    default: return undefined;
  }
}
