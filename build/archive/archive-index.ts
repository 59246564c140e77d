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

/** The index schema this module writes and reads, as `PRAGMA user_version`; 0 is the first (one wide table). */
export const ARCHIVE_INDEX_SCHEMA_VERSION = 3;

/** An index of a schema this module does not read (an older one is rebuilt by `hra archive reindex`). */
export class ArchiveIndexSchemaError extends Error {
  /**
   * `first`: the first schema's one wide table; `older`: a later one this hra no longer writes (2: record ids as
   * text); both read by readOlderSchemaRows. `newer`: a later hra's.
   */
  readonly schema: 'first' | 'older' | 'newer';

  constructor(message: string, schema: 'first' | 'older' | 'newer') {
    super(message);
    this.name = 'ArchiveIndexSchemaError';
    this.schema = schema;
  }
}

// Only the form the writer writes (lowercase, as randomUUID gives it) is cut to bytes, so every id reads back as written.
const UUID_RECORD_ID = /^<urn:uuid:([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})>$/;
const HEX = '[0-9a-f]';
const UUID_RECORD_ID_GLOB = `<urn:uuid:${HEX.repeat(8)}-${HEX.repeat(4)}-${HEX.repeat(4)}-${HEX.repeat(4)}-${HEX.repeat(12)}>`;

// A row holds what differs per record: the URL and the file name are numbers into tables that hold each once,
// so a week that fetches the same URLs adds no URL text; a digest is its 32 bytes (hex in `records`), and a
// record id, and the ids a row refers to, are the 16 bytes of their UUID (`<urn:uuid:…>` text in `records`):
// the ids were 60% of a schema-2 row, the UNIQUE index on record_id a second copy of one. The references stay
// ids, not row numbers, so that a row survives its referent's prune and a reindex in any file order. The
// indexes hold only the rows their lookups ask for: requests are never looked up by URL or digest, revisits
// never by digest. `records` is a view with the columns of the first schema (and the stored ids as `*_key`), for the readers that query the
// index in SQL (prune, verify) and for edits (its triggers write the tables).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS index_files (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS index_uris (id INTEGER PRIMARY KEY, uri TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS index_rows (
  record_id BLOB NOT NULL UNIQUE,
  type TEXT NOT NULL CHECK (type IN ('request', 'response', 'revisit')),
  uri INTEGER NOT NULL REFERENCES index_uris (id),
  warc_date TEXT NOT NULL,
  file INTEGER NOT NULL REFERENCES index_files (id),
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  payload_sha256 BLOB,
  refers_to BLOB,
  concurrent_to BLOB
);
CREATE INDEX IF NOT EXISTS index_rows_payload ON index_rows (payload_sha256, warc_date) WHERE type = 'response';
CREATE INDEX IF NOT EXISTS index_rows_file_offset ON index_rows (file, offset);
CREATE INDEX IF NOT EXISTS index_rows_uri ON index_rows (uri, warc_date) WHERE type IN ('response', 'revisit');
CREATE VIEW IF NOT EXISTS records AS SELECT r.rowid AS rowid, ${decodedRecordId('r.record_id')} AS record_id, r.type, u.uri AS target_uri, r.warc_date,
  f.name AS file, r.offset, r.length, ${decodedDigest('r.payload_sha256')} AS payload_sha256, ${decodedRecordId('r.refers_to')} AS refers_to,
  ${decodedRecordId('r.concurrent_to')} AS concurrent_to, r.record_id AS record_key, r.refers_to AS refers_key, r.concurrent_to AS concurrent_key
  FROM index_rows r JOIN index_uris u ON u.id = r.uri JOIN index_files f ON f.id = r.file;
CREATE TRIGGER IF NOT EXISTS records_insert INSTEAD OF INSERT ON records BEGIN
  INSERT OR IGNORE INTO index_uris (uri) VALUES (NEW.target_uri);
  INSERT OR IGNORE INTO index_files (name) VALUES (NEW.file);
  INSERT INTO index_rows (record_id, type, uri, warc_date, file, offset, length, payload_sha256, refers_to, concurrent_to)
  VALUES (${encodedRecordId('NEW.record_id')}, NEW.type, (SELECT id FROM index_uris WHERE uri = NEW.target_uri), NEW.warc_date,
    (SELECT id FROM index_files WHERE name = NEW.file), NEW.offset, NEW.length, ${encodedDigest('NEW.payload_sha256')},
    ${encodedRecordId('NEW.refers_to')}, ${encodedRecordId('NEW.concurrent_to')});
END;
CREATE TRIGGER IF NOT EXISTS records_update INSTEAD OF UPDATE ON records BEGIN
  INSERT OR IGNORE INTO index_uris (uri) VALUES (NEW.target_uri);
  INSERT OR IGNORE INTO index_files (name) VALUES (NEW.file);
  UPDATE index_rows SET record_id = ${encodedRecordId('NEW.record_id')}, type = NEW.type, uri = (SELECT id FROM index_uris WHERE uri = NEW.target_uri),
    warc_date = NEW.warc_date, file = (SELECT id FROM index_files WHERE name = NEW.file), offset = NEW.offset, length = NEW.length,
    payload_sha256 = ${encodedDigest('NEW.payload_sha256')}, refers_to = ${encodedRecordId('NEW.refers_to')}, concurrent_to = ${encodedRecordId('NEW.concurrent_to')}
  WHERE rowid = OLD.rowid;
END;
CREATE TRIGGER IF NOT EXISTS records_delete INSTEAD OF DELETE ON records BEGIN
  DELETE FROM index_rows WHERE rowid = OLD.rowid;
END;
PRAGMA user_version = ${ARCHIVE_INDEX_SCHEMA_VERSION};
`;

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** A digest as stored: lowercase hex as its 32 bytes; anything else (an edited or foreign row) as written. */
function encodeDigest(digest: string | null): Buffer | string | null {
  return digest !== null && HEX_DIGEST.test(digest) ? Buffer.from(digest, 'hex') : digest;
}

/** encodeDigest in SQL, for rows written through the `records` view. */
function encodedDigest(value: string): string {
  return `CASE WHEN typeof(${value}) = 'text' AND length(${value}) = 64 AND ${value} NOT GLOB '*[^0-9a-f]*' THEN unhex(${value}) ELSE ${value} END`;
}

/** A stored digest as the hex it was written as. */
function decodedDigest(value: string): string {
  return `CASE WHEN typeof(${value}) = 'blob' THEN lower(hex(${value})) ELSE ${value} END`;
}

/** A record id as stored: a `<urn:uuid:…>` of lowercase hex as its 16 bytes; anything else as written. */
export function encodeRecordId(recordId: string): Buffer | string;
export function encodeRecordId(recordId: string | null): Buffer | string | null;
export function encodeRecordId(recordId: string | null): Buffer | string | null {
  const parts = recordId === null ? null : UUID_RECORD_ID.exec(recordId);
  return parts ? Buffer.from(parts.slice(1).join(''), 'hex') : recordId;
}

/**
 * encodeRecordId in SQL: what a reader compares `records.record_key` (or `refers_key`, `concurrent_key`, the
 * stored columns, which the indexes cover) with, so that a join on an id seeks rather than decodes every row.
 */
export function encodedRecordId(value: string): string {
  return `CASE WHEN typeof(${value}) = 'text' AND ${value} GLOB '${UUID_RECORD_ID_GLOB}' THEN unhex(replace(substr(${value}, 11, 36), '-', '')) ELSE ${value} END`;
}

/** A stored record id as the `<urn:uuid:…>` it was written as. */
function decodedRecordId(value: string): string {
  const hex = `lower(hex(${value}))`;
  return `CASE WHEN typeof(${value}) = 'blob' AND length(${value}) = 16 THEN '<urn:uuid:' || substr(${hex}, 1, 8) || '-' || substr(${hex}, 9, 4)
    || '-' || substr(${hex}, 13, 4) || '-' || substr(${hex}, 17, 4) || '-' || substr(${hex}, 21, 12) || '>' ELSE ${value} END`;
}

const COLUMNS = `${decodedRecordId('r.record_id')} AS recordId, r.type, u.uri AS targetUri, r.warc_date AS warcDate, f.name AS file, r.offset, r.length,
  ${decodedDigest('r.payload_sha256')} AS payloadSha256, ${decodedRecordId('r.refers_to')} AS refersTo, ${decodedRecordId('r.concurrent_to')} AS concurrentTo`;
/** The table of the rows themselves (`records` is a view over it): what an index of the rows must be made on. */
export const INDEX_ROWS_TABLE = 'index_rows';
const FROM = 'index_rows r JOIN index_uris u ON u.id = r.uri JOIN index_files f ON f.id = r.file';

/**
 * Refuses an index this module cannot read: the first schema (a `records` table, user_version 0) and the
 * second (user_version 2, ids as text) are named with the command that rebuilds them, a later one with its version.
 */
function checkSchema(database: Database.Database, file: string): void {
  const version = database.pragma('user_version', { simple: true }) as number;
  const wide = database.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'records'").get() !== undefined;
  if (wide) throw new ArchiveIndexSchemaError(`${file}: an index of the first schema (one row of text per record); rebuild it with hra archive reindex --archive <dir> (the WARC files are unchanged)`, 'first');
  const split = database.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'index_rows'").get() !== undefined;
  if (split && version > 0 && version < ARCHIVE_INDEX_SCHEMA_VERSION) throw new ArchiveIndexSchemaError(`${file}: an index of schema ${version} (record ids as text); rebuild it with hra archive reindex --archive <dir> (the WARC files are unchanged)`, 'older');
  if (version > ARCHIVE_INDEX_SCHEMA_VERSION) throw new ArchiveIndexSchemaError(`${file}: index schema ${version}, newer than this hra reads (${ARCHIVE_INDEX_SCHEMA_VERSION})`, 'newer');
}

/**
 * Every row of an index of the first or second schema, by record id (both have `records` with these columns,
 * a table in the first, a view in the second): what `hra archive reindex` compares its rebuilt rows with.
 */
export function readOlderSchemaRows(file: string): ArchiveIndexRow[] {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return database.prepare(`SELECT record_id AS recordId, type, target_uri AS targetUri, warc_date AS warcDate, file, offset, length,
      payload_sha256 AS payloadSha256, refers_to AS refersTo, concurrent_to AS concurrentTo FROM records ORDER BY record_id`).all() as ArchiveIndexRow[];
  } finally {
    database.close();
  }
}

/** Opens (creating it and the archive folder unless read-only) the index of the archive at `archiveDir`. */
export function openArchiveIndex(archiveDir: string, options: OpenArchiveIndexOptions = {}): ArchiveIndex {
  const file = join(archiveDir, options.fileName ?? ARCHIVE_INDEX_FILE);
  if (!options.readonly) mkdirSync(archiveDir, { recursive: true });
  const database = new Database(file, { readonly: options.readonly === true, fileMustExist: options.readonly === true });
  // A writer and readers (replay, verify) may have it open at once; FULL syncs each commit, so a row the
  // verdict line relies on survives a crash of the machine, not only of the process.
  database.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  try {
    checkSchema(database, file);
  } catch (error) {
    database.close();
    throw error;
  }
  if (!options.readonly) {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.exec(SCHEMA);
  }
  const insertUri = database.prepare('INSERT OR IGNORE INTO index_uris (uri) VALUES (?)');
  const uriId = database.prepare('SELECT id FROM index_uris WHERE uri = ?').pluck();
  const insertFile = database.prepare('INSERT OR IGNORE INTO index_files (name) VALUES (?)');
  const fileId = database.prepare('SELECT id FROM index_files WHERE name = ?').pluck();
  const idOf = (insert: Database.Statement, select: Database.Statement, value: string) => {
    insert.run(value);
    return select.get(value) as number;
  };
  const insertRow = database.prepare(`INSERT INTO index_rows
    (record_id, type, uri, warc_date, file, offset, length, payload_sha256, refers_to, concurrent_to)
    VALUES (@recordId, @type, @uri, @warcDate, @file, @offset, @length, @payloadSha256, @refersTo, @concurrentTo)`);
  const insertAll = database.transaction((rows: readonly ArchiveIndexRow[]) => {
    for (const row of rows) {
      insertRow.run({
        ...row, recordId: encodeRecordId(row.recordId), uri: idOf(insertUri, uriId, row.targetUri), file: idOf(insertFile, fileId, row.file),
        payloadSha256: encodeDigest(row.payloadSha256), refersTo: encodeRecordId(row.refersTo), concurrentTo: encodeRecordId(row.concurrentTo),
      });
    }
  });
  const byId = database.prepare(`SELECT ${COLUMNS} FROM ${FROM} WHERE r.record_id = ?`);
  const byDigest = database.prepare(
    // The partial index covers the whole lookup: a payload repeated a million times costs one seek, not a scan of its rows.
    `SELECT ${COLUMNS} FROM ${FROM} WHERE r.payload_sha256 = ? AND r.type = 'response' ORDER BY r.warc_date LIMIT 1`,
  );
  // A redirect hop is looked up by its URL when a link line's record is of another (follow-archived-redirects.ts).
  const latestOf = database.prepare(`SELECT ${COLUMNS} FROM ${FROM} WHERE r.uri = (SELECT id FROM index_uris WHERE uri = ?)
    AND r.type IN ('response', 'revisit') AND r.warc_date <= ? ORDER BY r.warc_date DESC, r.rowid DESC LIMIT 1`);
  // A file stays in index_files after a prune removed its rows: only a file some row names is listed.
  const files = database.prepare('SELECT f.name FROM index_files f WHERE EXISTS (SELECT 1 FROM index_rows r WHERE r.file = f.id) ORDER BY f.name').pluck();
  const ofFile = database.prepare(`SELECT ${COLUMNS} FROM ${FROM} WHERE r.file = (SELECT id FROM index_files WHERE name = ?) ORDER BY r.offset`);
  const all = database.prepare(`SELECT ${COLUMNS} FROM ${FROM} ORDER BY r.record_id`);
  const end = database.prepare('SELECT COALESCE(MAX(offset + length), 0) FROM index_rows WHERE file = (SELECT id FROM index_files WHERE name = ?)').pluck();
  return {
    database,
    insert: (rows) => insertAll(rows),
    byRecordId: (recordId) => byId.get(encodeRecordId(recordId)) as ArchiveIndexRow | undefined,
    responseByPayloadSha256: (digest) => byDigest.get(encodeDigest(digest)) as ArchiveIndexRow | undefined,
    latestResponseOf: (targetUri, notAfter) => latestOf.get(targetUri, notAfter) as ArchiveIndexRow | undefined,
    listFiles: () => files.all() as string[],
    rowsOfFile: (name) => ofFile.all(name) as ArchiveIndexRow[],
    allRows: () => all.all() as ArchiveIndexRow[],
    indexedEnd: (name) => end.get(name) as number,
    close: () => database.close(),
  };
}
