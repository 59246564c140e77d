/** Appends rows to a corpus's `changes.ndjson` atomically, so a failure leaves the log untouched. */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeEventRow } from '../corpus/corpus-types.ts';
import { formatCorpusLine } from '../corpus/format-corpus-line.ts';

/** The change log's file name inside the corpus folder. */
export const CHANGE_LOG_FILE = 'changes.ndjson';

/**
 * Writes the whole new log (existing bytes, then one line per row, in the corpus's style) to a temporary file in the corpus
 * folder, fsyncs it and renames it over `changes.ndjson` (created when absent); no rows, no write.
 */
export function appendChangeLog(corpusRoot: string, rows: readonly ChangeEventRow[]): void {
  if (rows.length === 0) return;
  const file = join(corpusRoot, CHANGE_LOG_FILE);
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  // Trailing blank lines would land inside the file once rows follow them, and NDJSON forbids those.
  const kept = existing.replace(/\s+$/, '');
  const text = `${kept === '' ? '' : `${kept}\n`}${rows.map(formatCorpusLine).join('\n')}\n`;
  // Same folder, so the rename stays on one file system and is atomic; the dot keeps it out of listings.
  const temporary = join(corpusRoot, `.${CHANGE_LOG_FILE}.${process.pid}-${Date.now()}.tmp`);
  try {
    const fd = openSync(temporary, 'wx');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    fsyncFolder(corpusRoot);
  } finally {
    rmSync(temporary, { force: true });
  }
}

function fsyncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
