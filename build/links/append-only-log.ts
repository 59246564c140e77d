/** An NDJSON evidence file opened for appending, one complete line per write. */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatCorpusLine } from '../corpus/format-corpus-line.ts';

/** An open evidence file. */
export interface AppendOnlyLog {
  readonly file: string;
  /** Writes one JSON value as one line, in the corpus's style; when it returns, the line is in the file whole. */
  appendRow(row: object): void;
  close(): void;
}

/**
 * Opens `file` for appending (creating it and its folder when absent). Every line goes out in one write
 * of the whole line, newline included, to a descriptor opened with O_APPEND: a process killed at any
 * moment leaves complete lines only, in completion order after the existing ones.
 *
 * A file whose last line lacks its newline (hand-edited, or torn by a crash of something else) is not
 * glued onto: the caller has already loaded the corpus, so that line is a valid row, and one newline is
 * written before the first new line. A torn, invalid last line never gets here: the load refuses it.
 */
export function openAppendOnlyLog(file: string): AppendOnlyLog {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  let needsNewline = lacksFinalNewline(file);
  return {
    file,
    appendRow(row) {
      appendFileSync(fd, `${needsNewline ? '\n' : ''}${formatCorpusLine(row)}\n`);
      needsNewline = false;
    },
    close() {
      closeSync(fd);
    },
  };
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
