/** Digest of a snapshot's content, row by row, so tampering with any served byte is detectable. */
import { createHash, type Hash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { CONTENT_QUERIES } from './snapshot-format.ts';

/** Bytes gathered before each hash update: the hash is updated once a megabyte rather than twice a cell. */
const CHUNK_BYTES = 1 << 20;

/**
 * SHA-256 over every row of every content table in primary-key order; each cell is framed by its
 * type and length so no two different tables of cells can hash alike. With `onProgress`, reports the
 * share of rows hashed at most once a second (the rows are counted first, which costs little).
 */
export function computeContentDigest(db: Database.Database, onProgress?: (percent: number) => void): string {
  const hash = createHash('sha256');
  const chunk = new ChunkedHashInput(hash);
  const total = onProgress === undefined ? 0 : CONTENT_QUERIES.reduce((sum, sql) => sum + (db.prepare(`SELECT count(*) FROM (${sql})`).pluck().get() as number), 0);
  let hashed = 0;
  let reported = Date.now();
  for (const sql of CONTENT_QUERIES) {
    chunk.text(`\u0000table:${sql}\u0000`);
    for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) {
      for (const cell of row) {
        if (cell === null) chunk.text('n0:');
        else if (Buffer.isBuffer(cell)) {
          chunk.text(`b${cell.length}:`);
          chunk.bytes(cell);
        } else {
          const text = String(cell);
          chunk.text(`${typeof cell === 'number' || typeof cell === 'bigint' ? 'i' : 's'}${Buffer.byteLength(text, 'utf8')}:`);
          chunk.text(text);
        }
      }
      chunk.text('\n');
      hashed += 1;
      if (onProgress !== undefined && Date.now() - reported >= 1000) {
        reported = Date.now();
        onProgress(Math.floor((hashed / total) * 100));
      }
    }
  }
  chunk.flush();
  return hash.digest('hex');
}

/**
 * Gathers the hash's input in one buffer and hands it over a megabyte at a time: the same bytes in the
 * same order as one update per piece, so the digest is the same. Text is written as UTF-8, as
 * `hash.update(text)` encodes it (a lone surrogate as U+FFFD either way).
 */
class ChunkedHashInput {
  readonly #hash: Hash;
  readonly #buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  #used = 0;

  constructor(hash: Hash) {
    this.#hash = hash;
  }

  text(text: string): void {
    // Three bytes per UTF-16 unit is UTF-8's most, so a text that fits by that bound is written whole.
    if (text.length * 3 > CHUNK_BYTES - this.#used) {
      this.flush();
      if (text.length * 3 > CHUNK_BYTES) {
        this.#hash.update(text, 'utf8');
        return;
      }
    }
    this.#used += this.#buffer.write(text, this.#used, 'utf8');
  }

  bytes(bytes: Buffer): void {
    if (bytes.length > CHUNK_BYTES - this.#used) {
      this.flush();
      if (bytes.length > CHUNK_BYTES) {
        this.#hash.update(bytes);
        return;
      }
    }
    this.#used += bytes.copy(this.#buffer, this.#used);
  }

  flush(): void {
    if (this.#used === 0) return;
    this.#hash.update(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }
}
