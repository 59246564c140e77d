/**
 * The segment digests published beside every snapshot (the tree): `<revision>.sqlite.segments`, the
 * SHA-256 of each 256 MiB slice of the file and the whole-file digest they belong to. The
 * `<revision>.sqlite.sha256` records this file's own SHA-256 on its second line (snapshot-checksum.ts), so
 * `sha256sum -c` checks both. One SHA-256 stream runs on one core; slices can be checked on every core at
 * once, so the gateway's check scales with them (figures in BENCHMARKS.md).
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** Appended to a snapshot's path to name its segments file. */
export const SEGMENTS_SUFFIX = '.segments';

/** Bytes per segment: large enough that a snapshot has few, small enough to spread over the cores. */
export const SEGMENT_BYTES = 256 * 1024 * 1024;

/** The segments file's content. */
export interface SegmentDigests {
  readonly format: 'hra-segments-1';
  readonly segmentBytes: number;
  readonly fileBytes: number;
  /** The whole-file SHA-256, as in the `.sha256` file: the two must agree. */
  readonly sha256: string;
  /** Hex SHA-256 of bytes [i × segmentBytes, min((i + 1) × segmentBytes, fileBytes)). */
  readonly segments: readonly string[];
}

/** The segments file of `snapshotFile`. */
export function segmentsFileOf(snapshotFile: string): string {
  return `${snapshotFile}${SEGMENTS_SUFFIX}`;
}

/** The byte ranges [start, end) of the segments of a file of `fileBytes`. */
export function segmentRanges(fileBytes: number, segmentBytes: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (let start = 0; start < fileBytes || ranges.length === 0; start += segmentBytes) ranges.push([start, Math.min(start + segmentBytes, fileBytes)]);
  return ranges;
}

const CHUNK_BYTES = 4 * 1024 * 1024;

/** Reads `file` once and returns its whole-file SHA-256 and its segment digests. */
export function digestFileWithSegments(file: string, segmentBytes: number = SEGMENT_BYTES): SegmentDigests {
  if (!Number.isInteger(segmentBytes) || segmentBytes <= 0) throw new Error(`segment size must be a positive integer, got ${segmentBytes}`);
  const whole = createHash('sha256');
  const segments: string[] = [];
  let segment: Hash = createHash('sha256');
  let inSegment = 0;
  let fileBytes = 0;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, buffer, 0, CHUNK_BYTES, null); read > 0; read = readSync(fd, buffer, 0, CHUNK_BYTES, null)) {
      const chunk = buffer.subarray(0, read);
      whole.update(chunk);
      fileBytes += read;
      for (let offset = 0; offset < read;) {
        const take = Math.min(read - offset, segmentBytes - inSegment);
        segment.update(chunk.subarray(offset, offset + take));
        offset += take;
        inSegment += take;
        if (inSegment === segmentBytes) {
          segments.push(segment.digest('hex'));
          segment = createHash('sha256');
          inSegment = 0;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  if (inSegment > 0 || segments.length === 0) segments.push(segment.digest('hex'));
  return { format: 'hra-segments-1', segmentBytes, fileBytes, sha256: whole.digest('hex'), segments };
}

/** The segments file's text. */
export function formatSegmentDigests(digests: SegmentDigests): string {
  return `${JSON.stringify(digests)}\n`;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Parses a segments file, or undefined when it is not one (wrong shape, or a count that does not fit the sizes). */
export function parseSegmentDigests(text: string): SegmentDigests | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const candidate = value as Partial<SegmentDigests> | null;
  if (candidate === null || typeof candidate !== 'object' || candidate.format !== 'hra-segments-1') return undefined;
  const { segmentBytes, fileBytes, sha256, segments } = candidate;
  if (!Number.isSafeInteger(segmentBytes) || (segmentBytes as number) <= 0 || !Number.isSafeInteger(fileBytes) || (fileBytes as number) < 0) return undefined;
  if (typeof sha256 !== 'string' || !HEX64.test(sha256) || !Array.isArray(segments) || !segments.every((hex) => typeof hex === 'string' && HEX64.test(hex))) return undefined;
  if (segments.length !== segmentRanges(fileBytes as number, segmentBytes as number).length) return undefined;
  return { format: 'hra-segments-1', segmentBytes: segmentBytes as number, fileBytes: fileBytes as number, sha256, segments };
}
