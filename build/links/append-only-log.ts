/** An NDJSON evidence file opened for appending, one complete line per write. */
import { accessSync, appendFileSync, closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatCorpusLine } from '../corpus/format-corpus-line.ts';

/** An open evidence file. */
export interface AppendOnlyLog {
  readonly file: string;
  /** Writes one JSON value as one line, in the corpus's style; when it returns, the line is in the file whole. */
  appendRow(row: object): void;
  /** Writes every value as its line in one write: a kill leaves all of them or none (a worksheet's import). */
  appendRows(rows: readonly object[]): void;
  close(): void;
}

/**
 * Opens `file` for appending. Every line goes out in one write of the whole line, newline included, to a
 * descriptor opened with O_APPEND: a process killed at any moment leaves complete lines only, in
 * completion order after the existing ones.
 *
 * An absent file (and its folder) is created by the first line, not here, so a run that appends nothing
 * leaves the corpus as it found it (a kill between the creation and that write leaves it empty, never
 * torn); that it could be created is checked here, so an unwritable folder still fails before any work.
 *
 * A file whose last line lacks its newline (hand-edited, or torn by a crash of something else) is not
 * glued onto: the caller has already loaded the corpus, so that line is a valid row, and one newline is
 * written before the first new line. A torn, invalid last line never gets here: the load refuses it.
 */
export function openAppendOnlyLog(file: string): AppendOnlyLog {
  let fd = existsSync(file) ? openSync(file, 'a') : undefined;
  if (fd === undefined) checkCreatable(file);
  let needsNewline = fd !== undefined && lacksFinalNewline(file);
  return {
    file,
    appendRow(row) {
      if (fd === undefined) {
        mkdirSync(dirname(file), { recursive: true });
        fd = openSync(file, 'a');
      }
      appendFileSync(fd, `${needsNewline ? '\n' : ''}${formatCorpusLine(row)}\n`);
      needsNewline = false;
    },
    appendRows(rows) {
      if (rows.length === 0) return;
      if (fd === undefined) {
        mkdirSync(dirname(file), { recursive: true });
        fd = openSync(file, 'a');
      }
      appendFileSync(fd, `${needsNewline ? '\n' : ''}${rows.map((row) => `${formatCorpusLine(row)}\n`).join('')}`);
      needsNewline = false;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** Throws (with the errno code of the refusal) unless the nearest existing folder above `file` lets it be created. */
function checkCreatable(file: string): void {
  let folder = dirname(file);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  if (!statSync(folder).isDirectory()) throw Object.assign(new Error(`${folder}: not a folder`), { code: 'ENOTDIR' });
  accessSync(folder, constants.W_OK | constants.X_OK);
}

function lacksFinalNewline(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}
