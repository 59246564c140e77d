/**
 * Opens an archive's index.sqlite for a reader that treats it as untrusted input: it must be a regular
 * file that SQLite reads as a database whose schema archive-index.ts's statements compile against, and a
 * lock another process holds is waited on for a bounded time, then named. Every failure, then or at a
 * later query, is an ArchiveIndexError naming the index file.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type ArchiveIndex, ArchiveIndexSchemaError, openArchiveIndex } from './archive-index.ts';
import { describeLockHolder } from './describe-lock-holder.ts';
import { ARCHIVE_INDEX_FILE } from './warc-archive-layout.ts';

/** The wait for a lock another process holds on the index, before the reader gives up naming it. */
export const INDEX_BUSY_WAIT_MS = 5000;

/** An index that cannot be read as one; the message names the index file. */
export class ArchiveIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveIndexError';
  }
}

/** Opens the index of the archive at `archiveDir` read-only (see the file head). */
export function openArchiveIndexForReading(archiveDir: string): ArchiveIndex {
  const file = join(archiveDir, ARCHIVE_INDEX_FILE);
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats === undefined) throw new ArchiveIndexError(`${file}: no archive index (not an evidence archive, or none was written yet)`);
  // SQLite would block on a FIFO's open, and reads an empty file as an empty database.
  if (!stats.isFile()) throw new ArchiveIndexError(`${file}: not a regular file, so not an archive index`);
  if (stats.size === 0) throw new ArchiveIndexError(`${file}: is empty, not an archive index`);
  try {
    // Preparing the index's statements reads the schema: a foreign or damaged one fails here.
    return openArchiveIndex(archiveDir, { readonly: true, busyTimeoutMs: INDEX_BUSY_WAIT_MS });
  } catch (error) {
    throw asArchiveIndexError(archiveDir, error);
  }
}

/** An SQLite failure on the index (at open or at any later query) as one line naming the file; anything else as is. */
export function asArchiveIndexError(archiveDir: string, error: unknown): unknown {
  // The message names the file already, and the command that rebuilds an index of the first schema.
  if (error instanceof ArchiveIndexSchemaError) return new ArchiveIndexError(error.message);
  const code = (error as { code?: unknown }).code;
  if (error instanceof ArchiveIndexError || typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const file = join(archiveDir, ARCHIVE_INDEX_FILE);
  const message = (error as Error).message;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new ArchiveIndexError(`${file}: locked for more than ${INDEX_BUSY_WAIT_MS / 1000} s, ${describeLockHolder([file, `${file}-wal`, `${file}-shm`])}`);
  }
  if (code === 'SQLITE_NOTADB') return new ArchiveIndexError(`${file}: not an SQLite database, so not an archive index`);
  if (code.startsWith('SQLITE_CORRUPT')) return new ArchiveIndexError(`${file}: damaged (${message})`);
  if (code === 'SQLITE_ERROR' && /^no such (table|column)|has no column named/.test(message)) return new ArchiveIndexError(`${file}: not the schema an archive index has (${message})`);
  return new ArchiveIndexError(`${file}: cannot be read (${code}: ${message})`);
}
