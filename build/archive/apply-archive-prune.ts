/**
 * Carries out a prune plan (plan-archive-prune.ts) so that a kill at any moment loses no kept record: a
 * file holding kept and expired records is rewritten by copying the kept gzip members byte for byte (by the
 * index's offset and length) after the file's unindexed head (its warcinfo record) into a new file, which is flushed and renamed into place before one index
 * transaction moves the kept rows to it and drops the expired ones; only then is the old file removed. A
 * journal beside the index names the step under way, so the next prune finishes or undoes it.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { encodeRecordId } from './archive-index.ts';
import { fsyncPath } from './fsync-path.ts';
import { INDEX_RECORDS_TABLE as records } from './load-evidence-table.ts';
import type { FilePrunePlan } from './plan-archive-prune.ts';

/** The journal of the step under way, in the archive folder (never synced: only `warc/**\/*.warc.gz` is). */
export const PRUNE_JOURNAL = 'prune-journal.json';

/** One step: `old` is removed; `replacement`, when present, holds its kept records. Paths relative to the archive. */
interface JournalEntry {
  readonly old: string;
  readonly replacement: string | null;
}

/** What applying one file's plan did. */
export interface AppliedFilePrune {
  readonly file: string;
  readonly action: 'removed' | 'rewritten' | 'skipped';
  /** The rewritten file's new name, relative to the archive. */
  readonly replacement?: string;
  /** Why a file was skipped (a record written since the plan repeats one of its expired records). */
  readonly reason?: string;
  readonly bytesFreed: number;
}

/** What applyFilePrune needs. */
export interface ApplyFilePruneOptions {
  readonly archiveDir: string;
  readonly db: Database;
  /** A new unique file name (relative to the archive) in the folder of `old`, for the rewritten file. */
  readonly replacementName: (old: string) => string;
}

const COPY_CHUNK = 1 << 20;

/** Prunes one file by its plan; the index connection must not be inside a transaction. */
export function applyFilePrune(plan: FilePrunePlan, options: ApplyFilePruneOptions): AppliedFilePrune {
  const { archiveDir, db } = options;
  const oldPath = join(archiveDir, plan.file);
  const oldBytes = fileSize(oldPath);
  if (plan.action === 'rewrite' && !existsSync(oldPath)) return { file: plan.file, action: 'skipped', reason: `file not found, though the index names ${plan.keptRecords} kept records in it`, bytesFreed: 0 };
  const replacement = plan.action === 'rewrite' ? options.replacementName(plan.file) : null;
  writeJournal(archiveDir, { old: plan.file, replacement });
  const moved: Array<{ record_id: string; offset: number }> = [];
  if (replacement !== null) {
    const kept = db.prepare(`SELECT r.record_id, r.offset, r.length FROM ${records} r JOIN temp.keep k ON k.record_id = r.record_id
      WHERE r.file = ? ORDER BY r.offset`).all(plan.file) as Array<{ record_id: string; offset: number; length: number }>;
    const temporary = join(archiveDir, `${replacement}.prune-tmp`);
    try {
      const source = openSync(oldPath, 'r');
      try {
        const target = openSync(temporary, 'wx');
        try {
          // What the file holds before its first indexed record (its warcinfo) opens the new file too.
          const head = db.prepare(`SELECT MIN(offset) FROM ${records} WHERE file = ?`).pluck().get(plan.file) as number | null ?? 0;
          if (head > 0) copyRange(source, target, 0, head, oldPath, 'warcinfo');
          let position = head;
          for (const record of kept) {
            copyRange(source, target, record.offset, record.length, oldPath, record.record_id);
            moved.push({ record_id: record.record_id, offset: position });
            position += record.length;
          }
          fsyncSync(target);
        } finally {
          closeSync(target);
        }
      } finally {
        closeSync(source);
      }
    } catch (error) {
      // Nothing was committed: the old file and its rows stand as they were.
      rmSync(temporary, { force: true });
      removeJournal(archiveDir);
      throw error;
    }
    renameSync(temporary, join(archiveDir, replacement));
    fsyncPath(dirname(join(archiveDir, replacement)));
  }
  const expiredIds = `SELECT record_key FROM ${records} WHERE file = @file AND record_id IN (SELECT record_id FROM temp.expired)`;
  // A revisit written since the plan (a links check running beside the prune) may repeat an expired response.
  const referrer = db.prepare(`SELECT x.record_id, x.refers_to FROM ${records} x WHERE x.refers_key IN (${expiredIds})
    AND x.record_id NOT IN (SELECT record_id FROM temp.expired) LIMIT 1`);
  const move = db.prepare(`UPDATE ${records} SET file = ?, offset = ? WHERE record_key = ?`);
  const drop = db.prepare(`DELETE FROM ${records} WHERE file = ?`);
  const committed = db.transaction(() => {
    const late = referrer.get({ file: plan.file }) as { record_id: string; refers_to: string } | undefined;
    if (late !== undefined) return `record ${late.record_id}, written since the plan, repeats ${late.refers_to}`;
    for (const row of moved) move.run(replacement, row.offset, encodeRecordId(row.record_id));
    drop.run(plan.file);
    return undefined;
  }).immediate();
  if (committed !== undefined) {
    if (replacement !== null) rmSync(join(archiveDir, replacement), { force: true });
    removeJournal(archiveDir);
    return { file: plan.file, action: 'skipped', reason: committed, bytesFreed: 0 };
  }
  rmSync(oldPath, { force: true });
  fsyncPath(dirname(oldPath));
  removeJournal(archiveDir);
  const newBytes = replacement === null ? 0 : fileSize(join(archiveDir, replacement));
  return replacement === null
    ? { file: plan.file, action: 'removed', bytesFreed: oldBytes }
    : { file: plan.file, action: 'rewritten', replacement, bytesFreed: oldBytes - newBytes };
}

/**
 * Finishes or undoes the step a killed prune left in its journal: if the index already names the
 * replacement (or no longer names the old file), the old file goes; otherwise the replacement does. Returns
 * what it did, or undefined when there was no journal.
 */
export function recoverInterruptedPrune(archiveDir: string, db: Database): string | undefined {
  const path = join(archiveDir, PRUNE_JOURNAL);
  if (!existsSync(path)) return undefined;
  const entry = JSON.parse(readFileSync(path, 'utf8')) as JournalEntry;
  const names = db.prepare(`SELECT 1 FROM ${records} WHERE file = ? LIMIT 1`);
  const committed = entry.replacement !== null ? names.get(entry.replacement) !== undefined : names.get(entry.old) === undefined;
  if (entry.replacement !== null) rmSync(join(archiveDir, `${entry.replacement}.prune-tmp`), { force: true });
  if (committed) rmSync(join(archiveDir, entry.old), { force: true });
  else if (entry.replacement !== null) rmSync(join(archiveDir, entry.replacement), { force: true });
  removeJournal(archiveDir);
  return committed ? `finished the removal of ${entry.old}, which a killed prune had committed` : `undid the rewrite of ${entry.old}, which a killed prune had begun`;
}

/**
 * The same as recoverInterruptedPrune with no index to ask (a reindex rebuilding a lost one): while the old file
 * exists it still holds every record of the step, so the replacement goes; once it is gone, the replacement is all
 * that holds them and stays.
 */
export function undoInterruptedPrune(archiveDir: string): string | undefined {
  const path = join(archiveDir, PRUNE_JOURNAL);
  if (!existsSync(path)) return undefined;
  const entry = JSON.parse(readFileSync(path, 'utf8')) as JournalEntry;
  if (entry.replacement !== null) rmSync(join(archiveDir, `${entry.replacement}.prune-tmp`), { force: true });
  const oldStands = existsSync(join(archiveDir, entry.old));
  if (oldStands && entry.replacement !== null) rmSync(join(archiveDir, entry.replacement), { force: true });
  removeJournal(archiveDir);
  return oldStands ? `undid the rewrite of ${entry.old}, which a killed prune had begun` : `finished the removal of ${entry.old}, which a killed prune had committed`;
}

function copyRange(source: number, target: number, offset: number, length: number, file: string, recordId: string): void {
  const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(length, 1)));
  for (let done = 0; done < length;) {
    const want = Math.min(buffer.length, length - done);
    const read = readSync(source, buffer, 0, want, offset + done);
    if (read === 0) throw new Error(`${file}: record ${recordId}: the file ends ${length - done} bytes before the end of the record (offset ${offset}, length ${length}); nothing was pruned from it`);
    writeSync(target, buffer, 0, read);
    done += read;
  }
}

function writeJournal(archiveDir: string, entry: JournalEntry): void {
  const path = join(archiveDir, PRUNE_JOURNAL);
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(entry)}\n`);
  fsyncPath(temporary);
  renameSync(temporary, path);
  fsyncPath(archiveDir);
}

function removeJournal(archiveDir: string): void {
  rmSync(join(archiveDir, PRUNE_JOURNAL), { force: true });
}


function fileSize(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}
