/**
 * The checksum file published beside every snapshot: `<revision>.sqlite.sha256`, in `sha256sum` format
 * (`<64 hex>  <file name>` lines), so `sha256sum -c` checks it too. Its first line is the snapshot's; a
 * second line, written since snapshots publish a bound tree, is that of the segments file
 * (snapshot-segments.ts), so the piece digests the gateway checks in parallel are vouched for by the same
 * file an auditor checks (docs/decisions.md "The start-up hash"). It lives outside the SQLite file, so the
 * snapshot's own bytes stay reproducible; the gateway refuses a snapshot whose bytes no longer hash to it
 * (gateway/snapshot/load-snapshot.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** Appended to a snapshot's path to name its checksum file. */
export const CHECKSUM_SUFFIX = '.sha256';

/** The checksum file of `snapshotFile`. */
export function checksumFileOf(snapshotFile: string): string {
  return `${snapshotFile}${CHECKSUM_SUFFIX}`;
}

/** The checksum file's text for a file named `fileName` whose SHA-256 is `hex`. */
export function formatChecksumLine(hex: string, fileName: string): string {
  return `${hex}  ${fileName}\n`;
}

/** What a checksum file records: the snapshot's digest and, when the build bound one, its segments file's. */
export interface RecordedChecksums {
  /** Hex SHA-256 of the whole snapshot file (the first line). */
  readonly sha256: string;
  /** Hex SHA-256 of the bytes of `<snapshot>.segments` (the second line), absent in a file of one line. */
  readonly segmentsSha256: string | undefined;
}

/**
 * The checksum file's text binding the segments file too: the snapshot's line, then the segments file's
 * (`segmentsFileName` must be `fileName` + `.segments`, which the parser requires).
 */
export function formatChecksumLines(hex: string, fileName: string, segmentsHex: string, segmentsFileName: string): string {
  return formatChecksumLine(hex, fileName) + formatChecksumLine(segmentsHex, segmentsFileName);
}

const LINE = /^([0-9a-f]{64}) [ *](\S[^\n]*)$/;
// Spelled here, not imported from snapshot-segments.ts, so the two sidecar modules need not import each other.
const SEGMENTS_NAME_SUFFIX = '.segments';

/**
 * What a checksum file's text records, or undefined when it is neither one checksum line nor two whose second
 * names the first's file with `.segments` appended.
 */
export function parseChecksumFile(text: string): RecordedChecksums | undefined {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  if (lines.length > 2) return undefined;
  const [first, second] = lines.map((line) => LINE.exec(line));
  if (first === undefined || first === null || first[1] === undefined) return undefined;
  if (second === undefined) return { sha256: first[1], segmentsSha256: undefined };
  if (second === null || second[1] === undefined || second[2] !== `${first[2]}${SEGMENTS_NAME_SUFFIX}`) return undefined;
  return { sha256: first[1], segmentsSha256: second[1] };
}

/** The snapshot's hex digest a checksum file's text records (its first line), or undefined when parseChecksumFile refuses it. */
export function parseChecksumLine(text: string): string | undefined {
  return parseChecksumFile(text)?.sha256;
}

// 4 MiB reads: large enough that the syscall count is negligible, small enough to stay out of the way.
const CHUNK_BYTES = 4 * 1024 * 1024;

/** SHA-256 hex of a file's bytes, read in fixed chunks (snapshots can exceed a Buffer's maximum size). */
export function sha256FileChunked(file: string): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, buffer, 0, CHUNK_BYTES, null); read > 0; read = readSync(fd, buffer, 0, CHUNK_BYTES, null)) {
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
