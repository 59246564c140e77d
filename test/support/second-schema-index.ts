/**
 * An index.sqlite of the second schema (user_version 2, issue 39's first cut: URLs and file names as numbers,
 * digests as bytes, record ids as text), as hra wrote it before schema 3: what the reader must refuse and
 * `hra archive reindex` must turn into the current schema with the same rows.
 */
import Database from 'better-sqlite3';
import type { ArchiveIndexRow } from '../../build/archive/archive-index.ts';

// The second schema's tables and view, as archive-index.ts created them at user_version 2 (its triggers left out:
// rows are written to the tables here).
const SECOND_SCHEMA = `
CREATE TABLE index_files (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE index_uris (id INTEGER PRIMARY KEY, uri TEXT NOT NULL UNIQUE);
CREATE TABLE index_rows (record_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL CHECK (type IN ('request', 'response', 'revisit')),
  uri INTEGER NOT NULL REFERENCES index_uris (id), warc_date TEXT NOT NULL, file INTEGER NOT NULL REFERENCES index_files (id),
  offset INTEGER NOT NULL, length INTEGER NOT NULL, payload_sha256 BLOB, refers_to TEXT, concurrent_to TEXT);
CREATE VIEW records AS SELECT r.rowid AS rowid, r.record_id, r.type, u.uri AS target_uri, r.warc_date, f.name AS file, r.offset, r.length,
  CASE WHEN typeof(r.payload_sha256) = 'blob' THEN lower(hex(r.payload_sha256)) ELSE r.payload_sha256 END AS payload_sha256, r.refers_to, r.concurrent_to
  FROM index_rows r JOIN index_uris u ON u.id = r.uri JOIN index_files f ON f.id = r.file;
PRAGMA user_version = 2;
`;

/** Writes a second-schema index holding `rows` at `file` (which must not exist). */
export function writeSecondSchemaIndex(file: string, rows: readonly ArchiveIndexRow[]): void {
  const database = new Database(file);
  try {
    database.exec(SECOND_SCHEMA);
    const uri = database.prepare('INSERT OR IGNORE INTO index_uris (uri) VALUES (?)');
    const name = database.prepare('INSERT OR IGNORE INTO index_files (name) VALUES (?)');
    const insert = database.prepare(`INSERT INTO index_rows VALUES (@recordId, @type, (SELECT id FROM index_uris WHERE uri = @targetUri), @warcDate,
      (SELECT id FROM index_files WHERE name = @file), @offset, @length, @payload, @refersTo, @concurrentTo)`);
    for (const row of rows) {
      uri.run(row.targetUri);
      name.run(row.file);
      insert.run({ ...row, payload: row.payloadSha256 !== null && /^[0-9a-f]{64}$/.test(row.payloadSha256) ? Buffer.from(row.payloadSha256, 'hex') : row.payloadSha256 });
    }
  } finally {
    database.close();
  }
}
