/** One body compressed in one coding, at the gateway's levels, on libuv's thread pool (off the event loop). */
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { ContentCoding } from './negotiate-encoding.ts';

/**
 * Levels, chosen by measured cost (BENCHMARKS.md, "Compression"): brotli quality 5 compresses a 111 KB
 * collection in a few milliseconds to within a few percent of quality 11, which costs two orders more;
 * gzip 6 is zlib's default and within a percent of 9.
 */
export const COMPRESSION_LEVELS = { brotliQuality: 5, gzipLevel: 6 } as const;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The smallest brotli window (log2 bytes, 10 to 24) that holds `length` bytes. */
export function brotliWindowBits(length: number): number {
  return Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(Math.max(1, length)))));
}

/** Compresses `body` in `coding` off the event loop. */
export function compressBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: COMPRESSION_LEVELS.gzipLevel });
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: COMPRESSION_LEVELS.brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window no larger than the body: brotli's default (4 MiB) makes each encoder allocate megabytes,
      // which the thread pool's malloc arenas keep after the job (the gateway's RSS grew by ~70 MB filling
      // a 7 MB store at the published scale, BENCHMARKS.md "Compression").
      [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
    },
  });
}
