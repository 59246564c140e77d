// The archive's index.sqlite: one row per WARC record written, so a reader finds a record by id (or a payload by
// digest) and reads exactly its gzip member. The WARC files are the truth; the index is derivable from them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ARCHIVE_INDEX_FILE } from './warc-archive-layout.ts';

/** The WARC record types the archive writes. */
export const ARCHIVE_RECORD_TYPES = ['request', 'response', 'revisit'] as const;

/** One of the WARC record types the archive writes. */
export type ArchiveRecordType = (typeof ARCHIVE_RECORD_TYPES)[number];

/** One index row: where a record's gzip member lies and what it holds. */
export interface ArchiveIndexRow {
  /** The WARC-Record-ID as written, `<urn:uuid:…>`. */
  recordId: string;
  type: ArchiveRecordType;
  targetUri: string;
  /** WARC-Date as written (ISO 8601). */
  warcDate: string;
  /** Path relative to the archive folder, the closed `.warc.gz` name even while the file is open. */
  file: string;
  offset: number;
  /** Bytes of the record's gzip member. */
  length: number;
  /** Hex SHA-256 of the payload (for a revisit, of the payload it repeats); null for a request. */
  payloadSha256: string | null;
  /** For a revisit, the id of the response it repeats. */
  refersTo: string | null;
  /** For a request, the id of its response (or revisit). */
  concurrentTo: string | null;
}

/** The archive index, open for reads and (unless read-only) inserts. */
export interface ArchiveIndex {
  /** Inserts rows in one transaction, after their records' bytes are written and flushed. */
  insert(rows: readonly ArchiveIndexRow[]): void;
  /** The row of a record id, or undefined. */
  byRecordId(recordId: string): ArchiveIndexRow | undefined;
  /** The earliest response whose payload has this hex digest, or undefined (what a revisit refers to). */
  responseByPayloadSha256(payloadSha256: string): ArchiveIndexRow | undefined;
  /** The latest response or revisit of `targetUri` dated no later than `notAfter` (WARC-Date), or undefined. */
  latestResponseOf(targetUri: string, notAfter: string): ArchiveIndexRow | undefined;
  /** Every file named by a row, sorted. */
  listFiles(): string[];
  /** Every row of one file, by offset. */
  rowsOfFile(file: string): ArchiveIndexRow[];
  /** Every row, by record id. */
  allRows(): ArchiveIndexRow[];
  /** The end (offset + length) of the last indexed record of a file, 0 when none is. */
  indexedEnd(file: string): number;
  /** The underlying database, for queries this module does not name (read them, do not write them). */
  readonly database: Database.Database;
  close(): void;
}

/** Options for opening an archive's index. */
export interface OpenArchiveIndexOptions {
  /** Open an existing index read-only (a reader never creates an archive). */
  readonly?: boolean;
  /** Another file name in the archive folder than index.sqlite (a rebuilt index before it replaces the old). */
  fileName?: string;
  /** How long a statement waits for another connection's lock before SQLITE_BUSY; 5000 ms unless given. */
  busyTimeoutMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  record_id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('request', 'response', 'revisit')),
  target_uri TEXT NOT NULL,
  warc_date TEXT NOT NULL,
  file TEXT NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  payload_sha256 TEXT,
  refers_to TEXT,
  concurrent_to TEXT
);
CREATE INDEX IF NOT EXISTS records_payload_sha256 ON records (payload_sha256, type, warc_date);
CREATE INDEX IF NOT EXISTS records_file_offset ON records (file, offset);
CREATE INDEX IF NOT EXISTS records_target_uri ON records (target_uri, warc_date);
`;

const COLUMNS = `record_id AS recordId, type, target_uri AS targetUri, warc_date AS warcDate, file, offset, length,
  payload_sha256 AS payloadSha256, refers_to AS refersTo, concurrent_to AS concurrentTo`;

/** Opens (creating it and the archive folder unless read-only) the index of the archive at `archiveDir`. */
export function openArchiveIndex(archiveDir: string, options: OpenArchiveIndexOptions = {}): ArchiveIndex {
  const file = join(archiveDir, options.fileName ?? ARCHIVE_INDEX_FILE);
  if (!options.readonly) mkdirSync(archiveDir, { recursive: true });
  const database = new Database(file, { readonly: options.readonly === true, fileMustExist: options.readonly === true });
  // A writer and readers (replay, verify) may have it open at once; FULL syncs each commit, so a row the
  // verdict line relies on survives a crash of the machine, not only of the process.
  database.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  if (!options.readonly) {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.exec(SCHEMA);
  }
  const insertRow = database.prepare(`INSERT INTO records
    (record_id, type, target_uri, warc_date, file, offset, length, payload_sha256, refers_to, concurrent_to)
    VALUES (@recordId, @type, @targetUri, @warcDate, @file, @offset, @length, @payloadSha256, @refersTo, @concurrentTo)`);
  const insertAll = database.transaction((rows: readonly ArchiveIndexRow[]) => {
    for (const row of rows) insertRow.run(row);
  });
  const byId = database.prepare(`SELECT ${COLUMNS} FROM records WHERE record_id = ?`);
  const byDigest = database.prepare(
    // The index covers the whole lookup: a payload repeated a million times costs one seek, not a scan of its rows.
    `SELECT ${COLUMNS} FROM records WHERE payload_sha256 = ? AND type = 'response' ORDER BY warc_date LIMIT 1`,
  );
  // A redirect hop is looked up by its URL when a link line's record is of another (follow-archived-redirects.ts).
  const latestOf = database.prepare(`SELECT ${COLUMNS} FROM records WHERE target_uri = ? AND type IN ('response', 'revisit')
    AND warc_date <= ? ORDER BY warc_date DESC, rowid DESC LIMIT 1`);
  const files = database.prepare('SELECT DISTINCT file FROM records ORDER BY file').pluck();
  const ofFile = database.prepare(`SELECT ${COLUMNS} FROM records WHERE file = ? ORDER BY offset`);
  const all = database.prepare(`SELECT ${COLUMNS} FROM records ORDER BY record_id`);
  const end = database.prepare('SELECT COALESCE(MAX(offset + length), 0) FROM records WHERE file = ?').pluck();
  return {
    database,
    insert: (rows) => insertAll(rows),
    byRecordId: (recordId) => byId.get(recordId) as ArchiveIndexRow | undefined,
    responseByPayloadSha256: (digest) => byDigest.get(digest) as ArchiveIndexRow | undefined,
    latestResponseOf: (targetUri, notAfter) => latestOf.get(targetUri, notAfter) as ArchiveIndexRow | undefined,
    listFiles: () => files.all() as string[],
    rowsOfFile: (name) => ofFile.all(name) as ArchiveIndexRow[],
    allRows: () => all.all() as ArchiveIndexRow[],
    indexedEnd: (name) => end.get(name) as number,
    close: () => database.close(),
  };
}
