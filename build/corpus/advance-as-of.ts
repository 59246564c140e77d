/**
 * Moves the manifest's `asOf` forward to the date of new evidence. Review staleness (spec 3: 90 days) is
 * served counted from `asOf`, so a weekly run that gathers evidence and leaves `asOf` behind would serve
 * reviews that never go stale. The file keeps its bytes but for the one value, and is replaced by rename.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';

/** What moved. */
export interface AsOfMove {
  readonly from: string;
  readonly to: string;
}

/** The manifest's file name in the corpus folder. */
export const MANIFEST_FILE = 'manifest.json';

/**
 * Sets `asOf` in `<corpusRoot>/manifest.json` to `date` (YYYY-MM-DD) when `date` is later; returns the move,
 * or undefined when `asOf` was already at or past it (nothing is written).
 */
export function advanceAsOf(corpusRoot: string, date: string): AsOfMove | undefined {
  const file = join(corpusRoot, MANIFEST_FILE);
  const text = readFileSync(file, 'utf8');
  const from = (JSON.parse(text) as { asOf: string }).asOf;
  // ISO dates compare as text.
  if (!(date > from)) return undefined;
  const edited = applyEdits(text, modify(text, ['asOf'], date, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  const temporary = join(corpusRoot, `.${MANIFEST_FILE}.${process.pid}-${Date.now()}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', statSync(file).mode & 0o777);
    try {
      writeSync(fd, edited);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return { from, to: date };
}
