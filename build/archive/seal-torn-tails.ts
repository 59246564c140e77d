// Closes the `.open` WARC files a killed writer left: each is cut back to the end of its last indexed record, so a
// torn tail (a record half-written, or written and never indexed) is never read, and renamed to its closed name.
import { existsSync, readdirSync, renameSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveIndex } from './archive-index.ts';
import { ARCHIVE_WARC_DIR, OPEN_WARC_SUFFIX, archiveRelativePath, pidOfWarcFile } from './warc-archive-layout.ts';

/** What sealing did to one leftover `.open` file. */
export interface SealedFile {
  /** The closed name, relative to the archive (removed instead when nothing in it was indexed). */
  file: string;
  /** Bytes cut past the last indexed record. */
  cutBytes: number;
  /** Whether the file was removed because no record in it was indexed. */
  removed: boolean;
}

/** Options for sealing; `isProcessAlive` tells a live writer's file (left alone) from a dead one's. */
export interface SealTornTailsOptions {
  isProcessAlive?: (pid: number) => boolean;
}

/** Whether process `pid` runs (this one never counts: its own files are not another writer's). */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function findOpenFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findOpenFiles(path));
    else if (entry.name.endsWith(OPEN_WARC_SUFFIX)) found.push(path);
  }
  return found.sort();
}

/** Seals every `.open` WARC file of the archive whose writer is gone (see the file head). */
export function sealTornTails(archiveDir: string, index: ArchiveIndex, options: SealTornTailsOptions = {}): SealedFile[] {
  const isAlive = options.isProcessAlive ?? isProcessAlive;
  const sealed: SealedFile[] = [];
  for (const openPath of findOpenFiles(join(archiveDir, ARCHIVE_WARC_DIR))) {
    const pid = pidOfWarcFile(openPath);
    if (pid !== undefined && isAlive(pid)) continue;
    const closedPath = openPath.slice(0, -OPEN_WARC_SUFFIX.length);
    const file = archiveRelativePath(archiveDir, closedPath);
    const end = index.indexedEnd(file);
    const size = statSync(openPath).size;
    if (end > size) throw new Error(`${file}${OPEN_WARC_SUFFIX}: ${size} bytes, shorter than its indexed records (${end})`);
    if (end === 0) {
      unlinkSync(openPath);
      sealed.push({ file, cutBytes: size, removed: true });
      continue;
    }
    if (size > end) truncateSync(openPath, end);
    renameSync(openPath, closedPath);
    sealed.push({ file, cutBytes: size - end, removed: false });
  }
  return sealed;
}
