/** Digest of a snapshot's content, row by row, so tampering with any served byte is detectable. */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { CONTENT_QUERIES } from './snapshot-format.ts';

/**
 * SHA-256 over every row of every content table in primary-key order; each cell is framed by its
 * type and length so no two different tables of cells can hash alike.
 */
export function computeContentDigest(db: Database.Database): string {
  const hash = createHash('sha256');
  for (const sql of CONTENT_QUERIES) {
    hash.update(`\u0000table:${sql}\u0000`);
    for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) {
      for (const cell of row) {
        const bytes = cell === null ? Buffer.alloc(0) : Buffer.isBuffer(cell) ? cell : Buffer.from(String(cell), 'utf8');
        hash.update(`${cell === null ? 'n' : Buffer.isBuffer(cell) ? 'b' : typeof cell === 'number' || typeof cell === 'bigint' ? 'i' : 's'}${bytes.length}:`);
        hash.update(bytes);
      }
      hash.update('\n');
    }
  }
  return hash.digest('hex');
}
