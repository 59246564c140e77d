/** Checks that a file is an intact snapshot of a known format; shared by `hra verify` and the gateway's open. */
import Database from 'better-sqlite3';
import { computeContentDigest } from './content-digest.ts';
import { SNAPSHOT_APPLICATION_ID, SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION } from './snapshot-format.ts';
import { findForeignSchemaObject, findSchemaDifference } from './snapshot-schema.ts';

/** The outcome of one named check. */
export type CheckResult = { check: string; ok: true } | { check: string; ok: false; reason: string };

/** Options of inspectSnapshot. */
export interface InspectOptions {
  /** Also run `integrity` and `content`, which read the whole file. */
  deep: boolean;
  /** Receives a line as each check starts and ends (and the content check's progress), for `hra verify`. */
  onProgress?: (message: string) => void;
  /** Format versions accepted; by default only the current one (`hra changes detect` also reads the previous). */
  formatVersions?: readonly number[];
}

/**
 * Runs the structural checks on an open database: `format` (application id, no view or trigger, format name,
 * a version among `formatVersions`, by default only the current one, and for the current one exactly the
 * schema the build writes, snapshot-schema.ts) then, with `deep`, `integrity` (SQLite's own
 * check) and `content` (the recorded content digest).
 */
export function inspectSnapshot(db: Database.Database, options: InspectOptions): CheckResult[] {
  const versions = options.formatVersions ?? [SNAPSHOT_FORMAT_VERSION];
  const results: CheckResult[] = [];
  const fail = (check: string, reason: string) => results.push({ check, ok: false, reason });
  const report = options.onProgress ?? (() => {});
  let started = Date.now();
  const passed = (check: string) => {
    results.push({ check, ok: true });
    report(`verify: ${check} ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    started = Date.now();
  };
  try {
    if (db.pragma('application_id', { simple: true }) !== SNAPSHOT_APPLICATION_ID) {
      fail('format', 'not a home-repair-api snapshot');
      return results;
    }
    // Before any table is queried: a view in a table's place can be made to run for ever (a recursive CTE).
    const foreign = findForeignSchemaObject(db);
    if (foreign !== undefined) {
      fail('format', `schema: ${foreign}`);
      return results;
    }
    const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((row) => [row.key, row.value]));
    if (meta.get('format') !== SNAPSHOT_FORMAT) {
      fail('format', 'not a home-repair-api snapshot');
      return results;
    }
    if (!versions.some((version) => meta.get('format_version') === String(version))) {
      fail('format', `snapshot format version ${meta.get('format_version') ?? 'missing'} is not the supported ${listVersions(versions)}`);
      return results;
    }
    // Older formats (read only by `hra changes detect`) had other tables; the current one has exactly the build's.
    const difference = meta.get('format_version') === String(SNAPSHOT_FORMAT_VERSION) ? findSchemaDifference(db) : undefined;
    if (difference !== undefined) {
      fail('format', `schema: ${difference} (not the schema the build writes for format ${SNAPSHOT_FORMAT_VERSION})`);
      return results;
    }
    passed('format');
    if (!options.deep) return results;
    // One SQLite call: it cannot report how far it got, so say that it may take a while.
    report('verify: integrity: running SQLite integrity_check over the whole file');
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') {
      fail('integrity', `sqlite integrity_check: ${String(integrity)}`);
      return results;
    }
    passed('integrity');
    const recorded = meta.get('content_digest');
    const actual = computeContentDigest(db, options.onProgress && ((percent) => report(`verify: content: ${percent}% of rows hashed`)));
    if (recorded !== actual) fail('content', `content digest ${actual} does not match the recorded ${recorded ?? '(none)'}`);
    else passed('content');
  } catch (error) {
    fail(results.length === 0 ? 'format' : 'integrity', `unreadable: ${(error as Error).message}`);
  }
  return results;
}

/** "4", "3 or 4", "2, 3 or 4". */
function listVersions(versions: readonly number[]): string {
  return versions.length <= 1 ? versions.join('') : `${versions.slice(0, -1).join(', ')} or ${versions.at(-1)}`;
}

/** Bytes of the SQLite database header that inspectSnapshotHeader reads. */
export const SQLITE_HEADER_BYTES = 100;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\u0000', 'latin1');

/**
 * The structural check of a snapshot file from its first 100 bytes and its size, without opening it as a
 * database (O(1)): `header` fails for a file that is not SQLite (a text file, an empty file), a SQLite
 * database of another application (application_id), or a file whose size is not the page size times the
 * page count its header records (truncated, or grown by an append).
 */
export function inspectSnapshotHeader(header: Uint8Array, fileSize: number): CheckResult {
  const fail = (reason: string): CheckResult => ({ check: 'header', ok: false, reason });
  const bytes = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  if (bytes.length < SQLITE_HEADER_BYTES || !bytes.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    return fail(`not a SQLite database (${fileSize} bytes, no SQLite header)`);
  }
  const applicationId = bytes.readUInt32BE(68);
  if (applicationId !== SNAPSHOT_APPLICATION_ID) {
    return fail(`not a home-repair-api snapshot (SQLite application_id ${applicationId}, expected ${SNAPSHOT_APPLICATION_ID})`);
  }
  const rawPageSize = bytes.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pageCount = bytes.readUInt32BE(28);
  // The in-header page count is trustworthy only when its version-valid-for number matches the change counter.
  if (bytes.readUInt32BE(92) !== bytes.readUInt32BE(24)) return fail('the SQLite header\'s page count is stale (not written by a current SQLite)');
  const expected = pageSize * pageCount;
  if (fileSize !== expected) {
    return fail(`file is ${fileSize} bytes but its header records ${pageCount} pages of ${pageSize} bytes (${expected} bytes): ${fileSize < expected ? 'truncated' : 'extra bytes appended'}`);
  }
  return { check: 'header', ok: true };
}

/** Opens a snapshot file read-only; an unopenable file becomes a failed `format` check. */
export function openSnapshotFile(file: string): { db: Database.Database } | { error: CheckResult } {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    return { db };
  } catch (error) {
    return { error: { check: 'format', ok: false, reason: `cannot open ${file}: ${(error as Error).message}` } };
  }
}
