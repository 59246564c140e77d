/** Opens a new snapshot file's layout: its pragmas and empty tables, before any row goes in (STYLE 21). */
import type Database from 'better-sqlite3';
import { SNAPSHOT_APPLICATION_ID, SNAPSHOT_FORMAT_VERSION, SNAPSHOT_INDEXES, SNAPSHOT_TABLES } from './snapshot-format.ts';

/** Sets a new snapshot file's pragmas and creates its tables; the indexes come after the rows. */
export function createSnapshotTables(db: Database.Database): void {
  // Rollback journal, not WAL, so the finished file opens cleanly read-only (STYLE 21).
  db.pragma('journal_mode = DELETE');
  db.pragma('page_size = 4096');
  db.pragma('synchronous = OFF');
  db.pragma(`application_id = ${SNAPSHOT_APPLICATION_ID}`);
  db.pragma(`user_version = ${SNAPSHOT_FORMAT_VERSION}`);
  for (const sql of SNAPSHOT_TABLES) db.exec(sql);
}

/** Creates a snapshot's indexes, once its rows are in. */
export function createSnapshotIndexes(db: Database.Database): void {
  for (const sql of SNAPSHOT_INDEXES) db.exec(sql);
}
