import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { computeContentDigest } from '../../../build/snapshot/content-digest.ts';
import { createSnapshotTables } from '../../../build/snapshot/create-snapshot-tables.ts';
import { CONTENT_QUERIES } from '../../../build/snapshot/snapshot-format.ts';

/** The digest as docs/auditors.md states it: one update per frame and per cell, nothing gathered. */
function referenceDigest(db: Database.Database): string {
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

function snapshotWith(rows: number, bigText: string, bigBlob: Buffer): Database.Database {
  const db = new Database(':memory:');
  createSnapshotTables(db);
  const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  meta.run('plain', 'ascii');
  meta.run('astral', 'a house 🏠 and é');
  meta.run('lone', 'half \uD83D of a pair');
  meta.run('big', bigText);
  db.prepare('INSERT INTO documents (name, body, etag) VALUES (?, ?, ?)').run('big', bigBlob, '"e"');
  db.prepare('INSERT INTO documents (name, body, etag) VALUES (?, ?, ?)').run('empty', Buffer.alloc(0), '');
  const program = db.prepare('INSERT INTO programs (city, id, ord, facets, body_offset, body_length) VALUES (?, ?, ?, ?, ?, ?)');
  for (let index = 0; index < rows; index++) program.run(`city-${index % 50}`, `p-${index}`, index, `{"tier":"ü${index}"}`, index * 1_000_003, index % 977);
  const change = db.prepare('INSERT INTO changes (id, city, detected_at, visible, body) VALUES (?, ?, ?, ?, ?)');
  for (let index = 1; index <= 200; index++) change.run(index, 'detroit', '2026-11-27T00:00:00Z', index % 2, Buffer.alloc(index * 37, index));
  return db;
}

describe('computeContentDigest', () => {
  it('digests the same bytes as one update per cell, across chunk boundaries and cells larger than a chunk', () => {
    for (const [rows, textBytes, blobBytes] of [[0, 10, 10], [30_000, (1 << 20) + 3, (1 << 20) - 1], [5, 3 << 20, 5 << 20]] as const) {
      const db = snapshotWith(rows, `€${'x'.repeat(textBytes)}`, Buffer.alloc(blobBytes, 7));
      try {
        assert.equal(computeContentDigest(db), referenceDigest(db), `${rows} rows`);
      } finally {
        db.close();
      }
    }
  });

  it('changes when one byte of one cell changes', () => {
    const db = snapshotWith(100, 'x', Buffer.alloc(1));
    try {
      const before = computeContentDigest(db);
      db.prepare("UPDATE programs SET facets = '{\"tier\":\"v\"}' WHERE id = 'p-42'").run();
      assert.notEqual(computeContentDigest(db), before);
    } finally {
      db.close();
    }
  });
});
