/** Checks that a file is an intact snapshot of a known format; shared by `hra verify` and the gateway's open. */
import Database from 'better-sqlite3';
import { computeContentDigest } from './content-digest.ts';
import { SNAPSHOT_APPLICATION_ID, SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION } from './snapshot-format.ts';

/** The outcome of one named check. */
export type CheckResult = { check: string; ok: true } | { check: string; ok: false; reason: string };

/**
 * Runs the structural checks on an open database: `format` (application id, format name and version)
 * then, with `deep`, `integrity` (SQLite's own check) and `content` (the recorded content digest).
 */
export function inspectSnapshot(db: Database.Database, options: { deep: boolean }): CheckResult[] {
  const results: CheckResult[] = [];
  const fail = (check: string, reason: string) => results.push({ check, ok: false, reason });
  try {
    const applicationId = db.pragma('application_id', { simple: true });
    const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((row) => [row.key, row.value]));
    if (applicationId !== SNAPSHOT_APPLICATION_ID || meta.get('format') !== SNAPSHOT_FORMAT) {
      fail('format', 'not a home-repair-api snapshot');
      return results;
    }
    if (meta.get('format_version') !== String(SNAPSHOT_FORMAT_VERSION)) {
      fail('format', `snapshot format version ${meta.get('format_version') ?? 'missing'} is not the supported ${SNAPSHOT_FORMAT_VERSION}`);
      return results;
    }
    results.push({ check: 'format', ok: true });
    if (!options.deep) return results;
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') {
      fail('integrity', `sqlite integrity_check: ${String(integrity)}`);
      return results;
    }
    results.push({ check: 'integrity', ok: true });
    const recorded = meta.get('content_digest');
    const actual = computeContentDigest(db);
    if (recorded !== actual) fail('content', `content digest ${actual} does not match the recorded ${recorded ?? '(none)'}`);
    else results.push({ check: 'content', ok: true });
  } catch (error) {
    fail(results.length === 0 ? 'format' : 'integrity', `unreadable: ${(error as Error).message}`);
  }
  return results;
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
