// Where the evidence archive keeps its files: names that sync to object storage as they are (closed files never
// change, every name is unique), and the default folder beside the corpus.
import { dirname, join, relative, sep } from 'node:path';

/** The index file's name inside an archive folder. */
export const ARCHIVE_INDEX_FILE = 'index.sqlite';

/** The folder (inside an archive) that holds the WARC files, by date. */
export const ARCHIVE_WARC_DIR = 'warc';

/** The suffix of a WARC file still being written; only files without it are complete. */
export const OPEN_WARC_SUFFIX = '.open';

/** The default roll size of a WARC file, in MiB (`--archive-roll-mb`). */
export const DEFAULT_ARCHIVE_ROLL_MIB = 1024;

/** The default archive folder: `archive` beside the corpus folder, outside what the revision binds. */
export function defaultArchiveDir(corpusDir: string): string {
  return join(dirname(corpusDir.replace(/[\\/]+$/, '') || '.'), 'archive');
}

/** The path, relative to the archive, of the `sequence`th WARC file a writer started at `startedAt` by `pid` writes. */
export function warcFilePath(startedAt: Date, pid: number, sequence: number): string {
  const iso = startedAt.toISOString();
  const stamp = iso.slice(0, 19).replace(/[-T:]/g, '');
  const day = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  const name = `hra-${stamp}-${pid}-${String(sequence).padStart(5, '0')}.warc.gz`;
  return [ARCHIVE_WARC_DIR, ...day, name].join('/');
}

/** The pid written into a WARC file name by `warcFilePath`, or undefined for a name it did not make. */
export function pidOfWarcFile(file: string): number | undefined {
  const match = /hra-\d{14}-(\d+)-\d{5,}\.warc\.gz(?:\.open)?$/.exec(file);
  return match ? Number(match[1]) : undefined;
}

/** An absolute file path turned into the archive-relative, slash-separated form the index stores. */
export function archiveRelativePath(archiveDir: string, absolute: string): string {
  return relative(archiveDir, absolute).split(sep).join('/');
}
