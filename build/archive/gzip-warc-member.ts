// The one gzip member each WARC record is written as. Level 1 (zlib's fastest): on pages of real sizes the
// default level 6 cost the run's main thread 4x the CPU of level 1 for members about a sixth smaller
// (fixture HTML pages: 16.2% against 19.7% of the bytes), and compressing the archive was the largest
// single cost of a links check (BENCHMARKS.md "Link check"). A record whose bytes do not compress (a PDF's
// streams and images are compressed already) is stored (level 0): deflate at level 1 spends about 4.5x the CPU
// per byte on such bytes as on HTML, to save nothing. On 209 real PDFs (pdf.js's and py-pdf's test files)
// the rule below stored 123, halving their CPU (1.9 to 0.95 s) for 3.2% more of their bytes; one slice from
// the middle, often an image beside compressible text, stored 135 for 8%. Any level reads back the same, so
// files written before are read as they were.
import { constants, deflateRawSync, gzipSync } from 'node:zlib';

/** The zlib level of every member whose bytes compress. */
export const WARC_GZIP_LEVEL = constants.Z_BEST_SPEED;

/** Records shorter than this are compressed whole, untested: the test would cost what it saves. */
const SAMPLED_FROM_BYTES = 64 * 1024;
/** Slices compressed to tell whether a longer record compresses, spread evenly through it (past its headers). */
const SAMPLES = 4;
const SAMPLE_BYTES = 4 * 1024;
/** Stored when level 1 saves less than a sixteenth of the slices, on average. */
const STORED_BELOW_SAVING = 1 / 16;

/** `bytes` (one serialized record) as one gzip member, stored when its bytes do not compress (gzipLevelFor). */
export function gzipWarcMember(bytes: Uint8Array): Buffer {
  return gzipSync(bytes, { level: gzipLevelFor(bytes) });
}

/**
 * The level a record is written at: WARC_GZIP_LEVEL, or 0 (stored) when a record of at least
 * SAMPLED_FROM_BYTES has SAMPLES slices that level 1 shrinks by less than STORED_BELOW_SAVING on average. A
 * wrong guess costs bytes or CPU, never the content: every level inflates to the same record.
 */
function gzipLevelFor(bytes: Uint8Array): number {
  if (bytes.byteLength < SAMPLED_FROM_BYTES) return WARC_GZIP_LEVEL;
  let deflated = 0;
  for (let slice = 1; slice <= SAMPLES; slice++) {
    const start = Math.floor(((bytes.byteLength - SAMPLE_BYTES) * slice) / (SAMPLES + 1));
    // Raw deflate: the slice's size against its own, without the gzip header and trailer.
    deflated += deflateRawSync(bytes.subarray(start, start + SAMPLE_BYTES), { level: WARC_GZIP_LEVEL }).byteLength;
  }
  return 1 - deflated / (SAMPLES * SAMPLE_BYTES) < STORED_BELOW_SAVING ? constants.Z_NO_COMPRESSION : WARC_GZIP_LEVEL;
}
