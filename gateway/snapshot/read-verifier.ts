/**
 * Checks every unit read from a snapshot file against the digests the file recorded when it verified
 * (build/snapshot/read-digests.ts), before the bytes are served or cached. The watch on the served file
 * notices a write within milliseconds, but a read in between goes straight to the page cache; this check
 * is what makes such a read fail instead of serving another revision's bytes (STYLE 28).
 */
import { digestBody, digestRows, type DigestCell, type HeldDigests, type ReadDigestKind } from '../../build/snapshot/read-digests.ts';
import { strongEtagOfDigest } from '../../build/snapshot/strong-etag.ts';

/** Thrown when a read does not match what the file held when it verified; the message is the operator's line. */
export class ReadMismatchError extends Error {
  override readonly name = 'ReadMismatchError';
}

/** The checks of one opened snapshot file; each throws ReadMismatchError on a mismatch. */
export interface ReadVerifier {
  /** A document read by name (undefined: no such row): its body's SHA-256, and its ETag cut from it. */
  document(name: string, row: { body: Uint8Array; etag: string } | undefined): void;
  /** The rows read for one key of `kind` (`city`, `served`, `withheld`, `change`), as cells in the order the digest covers them. */
  rows(kind: Exclude<ReadDigestKind, 'document'>, key: string | number, cells: readonly (readonly DigestCell[])[]): void;
}

/** Creates the checks of `file`, whose recorded digests are `held`. */
export function createReadVerifier(held: HeldDigests, file: string): ReadVerifier {
  const mismatch = (what: string) => new ReadMismatchError(`the served file ${file} no longer holds the bytes that were verified: ${what}`);
  const compare = (kind: ReadDigestKind, key: string | number, actual: Buffer | undefined) => {
    const recorded = held.get(kind, key);
    // No row and no record is a lookup that misses in the verified file too (an unknown slug or id).
    if (actual === undefined && recorded === undefined) return;
    if (actual === undefined) throw mismatch(`${kind} ${key} is missing`);
    if (recorded === undefined) throw mismatch(`${kind} ${key} was not in the verified file`);
    if (!actual.equals(recorded)) throw mismatch(`${kind} ${key} reads sha256 ${actual.toString('hex')}, verified ${recorded.toString('hex')}`);
  };
  return {
    document(name, row) {
      const digest = row === undefined ? undefined : digestBody(row.body);
      compare('document', name, digest);
      if (row !== undefined && digest !== undefined && row.etag !== strongEtagOfDigest(digest)) throw mismatch(`document ${name} carries etag ${row.etag}, not its body's`);
    },
    rows(kind, key, cells) {
      // A kind keyed by a group (a city's rows) records a digest even when the group is empty.
      compare(kind, key, cells.length === 0 && held.get(kind, key) === undefined ? undefined : digestRows(cells));
    },
  };
}
