/**
 * The digest of every unit the gateway reads from a snapshot (format 5, table `read_digests`): once the
 * file verifies at open, the gateway holds these in memory and checks each body it reads against them
 * before serving or caching it, so bytes written over the file later are refused even when a read beats
 * the watch that notices the write (docs/operators.md "Operations").
 */
import { createHash } from 'node:crypto';

/**
 * What a digest covers, each keyed as the gateway looks it up: `document` (by name: the SHA-256 of the body
 * alone, from which its strong ETag derives), `city` (by slug: its `cities` row), `served` and `withheld`
 * (by city: the city's rows of `programs` and `withheld_programs` as the gateway reads them, in `ord`
 * order), `change` (by changeDigestKey of its city and id: its `changes` row; the keys also tell which
 * events a page must hold).
 */
export const READ_DIGEST_KINDS = ['document', 'city', 'served', 'withheld', 'change'] as const;
/** One of READ_DIGEST_KINDS. */
export type ReadDigestKind = (typeof READ_DIGEST_KINDS)[number];

/** The key of a change event's digest: its city and id, so the keys list every city's events. */
export function changeDigestKey(city: string, id: number): string {
  return `${city}\u0000${id}`;
}

/** The city and id of a changeDigestKey. */
export function parseChangeDigestKey(key: string): { city: string; id: number } {
  const split = key.lastIndexOf('\u0000');
  return { city: key.slice(0, split), id: Number(key.slice(split + 1)) };
}

/** A column value as better-sqlite3 returns it (integers as numbers). */
export type DigestCell = string | number | Uint8Array | null;

/** Bytes of one SHA-256 digest. */
export const DIGEST_BYTES = 32;

/** SHA-256 of rows of cells, each cell framed by its type and length so no two different row lists hash alike. */
export function digestRows(rows: Iterable<readonly DigestCell[]>): Buffer {
  const hash = createHash('sha256');
  // Text cells are framed into one string and hashed in one call (a call per cell cost most of a check);
  // the bytes hashed are the same: `<type><byte length>:<bytes>` per cell, a newline per row.
  let text = '';
  for (const row of rows) {
    for (const cell of row) {
      if (cell === null) text += 'n0:';
      else if (typeof cell === 'string') text += `s${Buffer.byteLength(cell, 'utf8')}:${cell}`;
      else if (typeof cell === 'number') {
        const digits = String(cell);
        text += `i${digits.length}:${digits}`;
      } else {
        hash.update(`${text}b${cell.byteLength}:`, 'utf8');
        text = '';
        hash.update(cell);
      }
    }
    text += '\n';
  }
  hash.update(text, 'utf8');
  return hash.digest();
}

/** SHA-256 of a document body: the digest its strong ETag is cut from (strong-etag.ts). */
export function digestBody(body: Uint8Array): Buffer {
  return createHash('sha256').update(body).digest();
}

/** One `read_digests` row: every digest of a kind, keys as a JSON array and digests concatenated in the same order. */
export interface ReadDigestsRow {
  kind: ReadDigestKind;
  keys: string;
  digests: Buffer;
}

/** Collects the digests while a snapshot is written; the rows come out sorted, so the same inputs give the same bytes. */
export class ReadDigestsWriter {
  readonly #kinds = new Map<ReadDigestKind, Map<string | number, Buffer>>(READ_DIGEST_KINDS.map((kind) => [kind, new Map()]));

  /** Records the digest of `key`; a key recorded twice is a build error. */
  add(kind: ReadDigestKind, key: string | number, digest: Uint8Array): void {
    const digests = this.#kinds.get(kind);
    if (digests === undefined || digests.has(key)) throw new Error(`read digest ${kind} ${key} recorded twice`);
    digests.set(key, Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength));
  }

  /** The table's rows, one per kind, keys in ascending order. */
  rows(): ReadDigestsRow[] {
    return READ_DIGEST_KINDS.map((kind) => {
      const digests = this.#kinds.get(kind) ?? new Map<string | number, Buffer>();
      const keys = [...digests.keys()].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : 1));
      return { kind, keys: JSON.stringify(keys), digests: Buffer.concat(keys.map((key) => digests.get(key) as Buffer)) };
    });
  }
}

/** The digests a verified file records, held in memory: a lookup by kind and key. */
export interface HeldDigests {
  /** The recorded digest, or undefined when the file records none for `key`. */
  get(kind: ReadDigestKind, key: string | number): Buffer | undefined;
  /** How many digests of `kind` the file records. */
  count(kind: ReadDigestKind): number;
  /** The keys of `kind`, in the table's (ascending) order. */
  keys(kind: ReadDigestKind): readonly (string | number)[];
}

/** Parses the table's rows; throws naming the problem when a kind is missing or its keys and digests disagree. */
export function parseReadDigests(rows: ReadonlyArray<{ kind: string; keys: string; digests: Uint8Array }>): HeldDigests {
  const kinds = new Map<string, { keys: (string | number)[]; index: Map<string | number, number>; digests: Buffer }>();
  for (const row of rows) {
    const keys = JSON.parse(row.keys) as unknown;
    if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' || typeof key === 'number')) throw new Error(`read_digests ${row.kind}: keys are not a list of strings and numbers`);
    if (row.digests.byteLength !== keys.length * DIGEST_BYTES) throw new Error(`read_digests ${row.kind}: ${row.digests.byteLength} digest bytes for ${keys.length} keys`);
    kinds.set(row.kind, { keys, index: new Map(keys.map((key: string | number, at) => [key, at])), digests: Buffer.from(row.digests.buffer, row.digests.byteOffset, row.digests.byteLength) });
  }
  const missing = READ_DIGEST_KINDS.find((kind) => !kinds.has(kind));
  if (missing !== undefined) throw new Error(`read_digests records no ${missing} digests`);
  return {
    get(kind, key) {
      const held = kinds.get(kind);
      const at = held?.index.get(key);
      return held === undefined || at === undefined ? undefined : held.digests.subarray(at * DIGEST_BYTES, (at + 1) * DIGEST_BYTES);
    },
    count: (kind) => kinds.get(kind)?.index.size ?? 0,
    keys: (kind) => kinds.get(kind)?.keys ?? [],
  };
}
