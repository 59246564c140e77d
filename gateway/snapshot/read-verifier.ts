/**
 * Checks every unit read from a snapshot file against the digests the file recorded when it verified
 * (build/snapshot/read-digests.ts), before the bytes are served or cached. The watch on the served file
 * notices a write within milliseconds, but a read in between goes straight to the page cache; this check
 * is what makes such a read fail instead of serving another revision's bytes (STYLE 28).
 */
import { changeDigestKey, digestBody, digestRows, parseChangeDigestKey, type DigestCell, type HeldDigests, type ReadDigestKind } from '../../build/snapshot/read-digests.ts';
import { strongEtagOfDigest } from '../../build/snapshot/strong-etag.ts';

/** Thrown when a read does not match what the file held when it verified; the message is the operator's line. */
export class ReadMismatchError extends Error {
  override readonly name = 'ReadMismatchError';
}

/** The checks of one opened snapshot file; each throws ReadMismatchError on a mismatch. */
export interface ReadVerifier {
  /** A document read by name (undefined: no such row): its body's SHA-256, and its ETag cut from it. */
  document(name: string, row: { body: Uint8Array; etag: string } | undefined): void;
  /** The rows read for one key of `kind` (`city`, `served`, `withheld`), as cells in the order the digest covers them. */
  rows(kind: Exclude<ReadDigestKind, 'document' | 'change'>, key: string | number, cells: readonly (readonly DigestCell[])[]): void;
  /** A page of change events read for `query`: each row, and that the page holds exactly the verified file's events. */
  changes(query: ChangePageQuery, rows: readonly ChangeRow[]): void;
}

/** The change feed's page query, as the snapshot runs it: ids <= maxId and < beforeId, newest first. */
export interface ChangePageQuery {
  maxId: number;
  beforeId: number;
  city?: string;
  limit: number;
}

/** A `changes` row as read. */
export interface ChangeRow {
  id: number;
  city: string;
  detectedAt: string;
  visible: number;
  body: Uint8Array;
}

/** Creates the checks of `file`, whose recorded digests are `held`. */
export function createReadVerifier(held: HeldDigests, file: string): ReadVerifier {
  let events: { all: number[]; byCity: Map<string, number[]> } | undefined;
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
    changes(query, rows) {
      for (const row of rows) compare('change', changeDigestKey(row.city, row.id), digestRows([[row.id, row.city, row.detectedAt, row.visible, row.body]]));
      // Each row checked, a row missing from the page is still possible: the page must be the verified file's.
      events ??= changeIdsByCity(held);
      // Ids are integers: `id <= maxId AND id < beforeId` is `id <= bound`; a negative LIMIT is none in SQLite.
      const bound = Math.min(Math.floor(query.maxId), Math.ceil(query.beforeId) - 1);
      const expected = newestIdsUpTo(query.city === undefined ? events.all : (events.byCity.get(query.city) ?? []), bound, query.limit < 0 ? Number.POSITIVE_INFINITY : query.limit);
      if (rows.length !== expected.length || rows.some((row, index) => row.id !== expected[index])) {
        throw mismatch(`change page ${JSON.stringify(query)} reads ids [${rows.map((row) => row.id).join(',')}], verified [${expected.join(',')}]`);
      }
    },
  };
}

/** Every change id of the verified file, ascending, overall and by city (built once, on the first page read). */
function changeIdsByCity(held: HeldDigests): { all: number[]; byCity: Map<string, number[]> } {
  const all: number[] = [];
  const byCity = new Map<string, number[]>();
  for (const key of held.keys('change')) {
    const { city, id } = parseChangeDigestKey(String(key));
    all.push(id);
    let ids = byCity.get(city);
    if (ids === undefined) byCity.set(city, (ids = []));
    ids.push(id);
  }
  const ascending = (a: number, b: number) => a - b;
  all.sort(ascending);
  for (const ids of byCity.values()) ids.sort(ascending);
  return { all, byCity };
}

/** The at most `limit` largest of the ascending `ids` that are <= `bound`, largest first. */
function newestIdsUpTo(ids: readonly number[], bound: number, limit: number): number[] {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] ?? 0) <= bound) low = middle + 1;
    else high = middle;
  }
  const newest: number[] = [];
  for (let index = low - 1; index >= 0 && newest.length < limit; index--) newest.push(ids[index] ?? 0);
  return newest;
}
