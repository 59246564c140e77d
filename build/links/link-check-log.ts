/** Appends link-check attempts to `evidence/link-checks.ndjson`, one complete line per write. */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LinkCheck } from '../corpus/corpus-types.ts';

/** The attempts file, relative to the corpus folder. */
export const LINK_CHECKS_FILE = 'evidence/link-checks.ndjson';

/** An open attempts file. */
export interface LinkCheckLog {
  readonly file: string;
  /** Writes one attempt as one line; when it returns, the line is in the file whole. */
  append(check: LinkCheck): void;
  close(): void;
}

/**
 * Opens the attempts file for appending (creating it and `evidence/` when absent). Every line goes out in
 * one write of the whole line, newline included, to a descriptor opened with O_APPEND: a process killed
 * at any moment leaves complete lines only, in completion order after the existing ones.
 *
 * A file whose last line lacks its newline (hand-edited, or torn by a crash of something else) is not
 * glued onto: the caller has already loaded the corpus, so that line is a valid attempt, and one newline
 * is written before the first new line. A torn, invalid last line never gets here: the load refuses it.
 */
export function openLinkCheckLog(corpusRoot: string): LinkCheckLog {
  const file = join(corpusRoot, LINK_CHECKS_FILE);
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  let needsNewline = lacksFinalNewline(file);
  return {
    file,
    append(check) {
      const row: LinkCheck = { url: check.url, checkedAt: check.checkedAt, outcome: check.outcome, httpStatus: check.httpStatus };
      if (check.pageClass !== undefined) row.pageClass = check.pageClass;
      appendFileSync(fd, `${needsNewline ? '\n' : ''}${JSON.stringify(row)}\n`);
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
