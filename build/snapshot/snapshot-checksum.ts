/**
 * The checksum file published beside every snapshot: `<revision>.sqlite.sha256`, one line in
 * `sha256sum` format (`<64 hex>  <file name>`), so `sha256sum -c` checks it too. It lives outside the
 * SQLite file, so the snapshot's own bytes stay reproducible; the gateway refuses a snapshot whose bytes
 * no longer hash to it (gateway/snapshot/load-snapshot.ts).
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

const LINE = /^([0-9a-f]{64}) [ *]\S[^\n]*\n?$/;

/** The hex digest a checksum file's text records, or undefined when the text is not one checksum line. */
export function parseChecksumLine(text: string): string | undefined {
  return LINE.exec(text)?.[1];
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
