/** Digest of a snapshot's content, row by row, so tampering with any served byte is detectable. */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { CONTENT_QUERIES } from './snapshot-format.ts';

/**
 * SHA-256 over every row of every content table in primary-key order; each cell is framed by its
 * type and length so no two different tables of cells can hash alike. With `onProgress`, reports the
 * share of rows hashed at most once a second (the rows are counted first, which costs little).
 */
export function computeContentDigest(db: Database.Database, onProgress?: (percent: number) => void): string {
  const hash = createHash('sha256');
  const total = onProgress === undefined ? 0 : CONTENT_QUERIES.reduce((sum, sql) => sum + (db.prepare(`SELECT count(*) FROM (${sql})`).pluck().get() as number), 0);
  let hashed = 0;
  let reported = Date.now();
  for (const sql of CONTENT_QUERIES) {
    hash.update(`\u0000table:${sql}\u0000`);
    for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) {
      for (const cell of row) {
        const bytes = cell === null ? Buffer.alloc(0) : Buffer.isBuffer(cell) ? cell : Buffer.from(String(cell), 'utf8');
        hash.update(`${cell === null ? 'n' : Buffer.isBuffer(cell) ? 'b' : typeof cell === 'number' || typeof cell === 'bigint' ? 'i' : 's'}${bytes.length}:`);
        hash.update(bytes);
      }
      hash.update('\n');
      hashed += 1;
      if (onProgress !== undefined && Date.now() - reported >= 1000) {
        reported = Date.now();
        onProgress(Math.floor((hashed / total) * 100));
      }
    }
  }
  return hash.digest('hex');
}
