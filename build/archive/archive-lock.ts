/**
 * The archive's lock: `archive.lock`, an empty SQLite file whose own file lock (POSIX `fcntl`, taken by an open
 * transaction) the kernel drops when its process dies, however it dies. A prune holds it exclusively for its
 * whole run; each archive writer (a `links check`) holds it shared, so writers run beside each other but never
 * beside a prune, and a prune never beside another. Beside the lock each holder leaves a note naming itself,
 * read only to say who holds the lock: the kernel's lock table (/proc/locks) decides which notes are live.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The lock file, in the archive folder (never synced: only `warc/**\/*.warc.gz` is). */
export const ARCHIVE_LOCK_FILE = 'archive.lock';

const NOTE_PREFIX = `${ARCHIVE_LOCK_FILE}.holder-`;

// Two holders in one process (two writers) each leave their own note.
let notesWritten = 0;

/** How a lock is held: `exclusive` for a prune (or anything that moves records), `shared` for a writer that appends. */
export type ArchiveLockMode = 'exclusive' | 'shared';

/** What acquireArchiveLock needs; `purpose` is how another process's refusal names this holder. */
export interface ArchiveLockOptions {
  readonly purpose: string;
  readonly mode: ArchiveLockMode;
  /** How long to wait for a holder to finish before refusing (0: refuse at once). */
  readonly waitMs: number;
}

/** A process that holds an archive's lock, as its note names it. */
export interface ArchiveLockHolder {
  readonly pid: number;
  readonly purpose: string;
}

/** The lock was held by another process for longer than the wait; the message names it. */
export class ArchiveLockedError extends Error {
  readonly holders: readonly ArchiveLockHolder[];
  constructor(archiveDir: string, purpose: string, waitMs: number, holders: readonly ArchiveLockHolder[]) {
    const who = holders.length === 0 ? 'another process' : holders.map((holder) => `${holder.purpose} (process ${holder.pid})`).join(', ');
    super(`--archive ${archiveDir}: ${who} holds the archive's lock (${ARCHIVE_LOCK_FILE}), still after ${waitMs} ms; no ${purpose} was done; run it once that has finished`);
    this.name = 'ArchiveLockedError';
    this.holders = holders;
  }
}

/** Takes the archive's lock (see the file head), waiting at most `waitMs`; returns the function that releases it. */
export function acquireArchiveLock(archiveDir: string, options: ArchiveLockOptions): () => void {
  const path = join(archiveDir, ARCHIVE_LOCK_FILE);
  const db = new Database(path, { timeout: options.waitMs });
  try {
    if (options.mode === 'exclusive') db.exec('BEGIN EXCLUSIVE');
    else {
      // A read inside an open transaction keeps SQLite's SHARED lock until the transaction ends.
      db.exec('BEGIN');
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    }
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new ArchiveLockedError(archiveDir, options.purpose, options.waitMs, lockHolders(archiveDir));
    throw error;
  }
  // An exclusive holder is alone: every other note is a dead process's.
  if (options.mode === 'exclusive') for (const note of notes(archiveDir)) rmSync(join(archiveDir, note), { force: true });
  const note = join(archiveDir, `${NOTE_PREFIX}${process.pid}-${++notesWritten}.json`);
  writeFileSync(note, `${JSON.stringify({ pid: process.pid, purpose: options.purpose, mode: options.mode })}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(note, { force: true });
    db.close();
  };
}

/** The processes that hold an archive's lock now, by their notes. */
export function lockHolders(archiveDir: string): ArchiveLockHolder[] {
  const live = lockingPids(join(archiveDir, ARCHIVE_LOCK_FILE));
  const holders: ArchiveLockHolder[] = [];
  for (const name of notes(archiveDir)) {
    const pid = Number(name.slice(NOTE_PREFIX.length).split('-')[0]);
    if (!(live === undefined ? processExists(pid) : live.has(pid))) continue;
    try {
      const note = JSON.parse(readFileSync(join(archiveDir, name), 'utf8')) as { purpose?: unknown };
      holders.push({ pid, purpose: typeof note.purpose === 'string' ? note.purpose : 'a process' });
    } catch {
      // Written after the lock was taken: a note being written or removed names no one yet.
    }
  }
  return holders.sort((a, b) => a.pid - b.pid).filter((holder, at, all) => at === 0 || holder.pid !== all[at - 1]!.pid || holder.purpose !== all[at - 1]!.purpose);
}

function notes(archiveDir: string): string[] {
  return readdirSync(archiveDir).filter((name) => name.startsWith(NOTE_PREFIX) && name.endsWith('.json'));
}

/** Pids holding a POSIX lock on the file, from the kernel's table; undefined where there is no /proc/locks. */
function lockingPids(path: string): Set<number> | undefined {
  let table: string;
  let inode: number;
  try {
    table = readFileSync('/proc/locks', 'utf8');
    inode = statSync(path).ino;
  } catch {
    return undefined;
  }
  const pids = new Set<number>();
  // "1: POSIX  ADVISORY  READ 1234 08:01:5678 1073741826 1073742335": pid, then major:minor:inode.
  for (const line of table.split('\n')) {
    // "->" marks a process waiting for the lock, not holding it.
    if (line.includes('->')) continue;
    const fields = line.trim().split(/\s+/);
    const at = fields.findIndex((field) => /^[0-9a-f]+:[0-9a-f]+:\d+$/.test(field));
    if (at > 0 && Number(fields[at]!.split(':')[2]) === inode) pids.add(Number(fields[at - 1]));
  }
  return pids;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
