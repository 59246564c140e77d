// The one gzip member each WARC record is written as. Level 1 (zlib's fastest): on pages of real sizes the
// default level 6 cost the run's main thread 4x the CPU of level 1 for members about a sixth smaller
// (fixture HTML pages: 16.2% against 19.7% of the bytes), and compressing the archive was the largest
// single cost of a links check (BENCHMARKS.md "Link check"). Any level reads back the same, so files
// written before are read as they were.
import { constants, gzipSync } from 'node:zlib';

/** The zlib level of every member the archive writes. */
export const WARC_GZIP_LEVEL = constants.Z_BEST_SPEED;

/** `bytes` (one serialized record) as one gzip member. */
export function gzipWarcMember(bytes: Uint8Array): Buffer {
  return gzipSync(bytes, { level: WARC_GZIP_LEVEL });
}
