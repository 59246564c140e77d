/** The check every archive-reading command makes of its `--archive` folder before any work. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHIVE_INDEX_FILE } from '../../build/archive/warc-archive-layout.ts';
import { CliFailure } from '../cli-failure.ts';
import { requireDirectory } from './require-path.ts';

/** Fails unless `archive` is a folder holding index.sqlite: a missing archive is never created by a reader or a prune. */
export function requireArchive(archive: string): void {
  requireDirectory('--archive', archive, 'WARC archive folder');
  if (statSync(join(archive, ARCHIVE_INDEX_FILE), { throwIfNoEntry: false })?.isFile() !== true) {
    throw new CliFailure(`--archive ${archive}: no ${ARCHIVE_INDEX_FILE} in it: not an evidence archive`);
  }
}
