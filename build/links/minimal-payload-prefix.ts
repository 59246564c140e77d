/**
 * The shortest start of a captured body, as received (content-encoding kept), whose decoding reaches the point
 * where the link rules' prefix reader stops, so an unchanged page read in part archives the same bytes each week.
 */
import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';
import type { BodyPrefixOptions } from './read-body-prefix.ts';

/**
 * Returns the raw byte count whose decoding first holds a match of `stop.stopAt` within its first `stop.cap`
 * bytes, or `stop.cap` decoded bytes; undefined when all of `raw` does not get there (a deadline, a cut
 * connection) or its coding is not read. Depends on the bytes only, never on how they arrived in chunks.
 */
export function minimalPayloadPrefix(raw: Uint8Array, contentEncoding: string | undefined, stop: BodyPrefixOptions): number | undefined {
  const decode = decoderOf(contentEncoding, stop.cap);
  if (decode === undefined) return undefined;
  const reaches = (length: number): boolean => {
    const decoded = decode(raw.subarray(0, length));
    if (decoded === undefined) return false;
    if (decoded === 'over') return true;
    if (decoded.byteLength >= stop.cap) return true;
    return stop.stopAt.test(Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength).toString('latin1'));
  };
  if (!reaches(raw.byteLength)) return undefined;
  // Decoded output only grows with the input, so the first length that reaches is found by halving.
  let low = 0;
  let high = raw.byteLength;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (reaches(middle)) high = middle;
    else low = middle + 1;
  }
  return high;
}

type Decode = (bytes: Uint8Array) => Uint8Array | 'over' | undefined;

/**
 * A one-shot decoder that yields what a cut-short stream holds so far (`finishFlush`), bounded to `cap`
 * output bytes ('over' past it) so no compression ratio makes it costly; undefined for a coding not read.
 */
function decoderOf(contentEncoding: string | undefined, cap: number): Decode | undefined {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  const bounded = (inflate: (bytes: Uint8Array) => Buffer): Decode => (bytes) => {
    try {
      return inflate(bytes);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'over';
      return undefined;
    }
  };
  const zlibOptions = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap };
  switch (coding) {
    case '':
    case 'identity': return (bytes) => bytes.subarray(0, cap);
    case 'gzip':
    case 'x-gzip': return bounded((bytes) => gunzipSync(bytes, zlibOptions));
    case 'deflate': return bounded((bytes) => inflateSync(bytes, zlibOptions));
    case 'br': return bounded((bytes) => brotliDecompressSync(bytes, { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: cap }));
    default: return undefined;
  }
}
