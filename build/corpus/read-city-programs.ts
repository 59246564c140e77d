/**
 * Re-reads one city's program rows, already validated by loadCorpus (or by a build's workers for it), for
 * the readers that come after the load: derivation, link checks, change detection.
 */
import { readFileSync } from 'node:fs';
import type { Corpus, ProgramRow } from './corpus-types.ts';

/** Re-reads one city's program rows, already validated by loadCorpus, in file order. */
export function readCityPrograms(corpus: Pick<Corpus, 'programFiles'>, slug: string): ProgramRow[] {
  return readProgramFile(corpus.programFiles.get(slug));
}

/** The rows of a program file in file order; no file (a city without programs) has none. */
function readProgramFile(file: string | undefined): ProgramRow[] {
  if (!file) return [];
  const text = readFileSync(file, 'utf8');
  const rows: ProgramRow[] = [];
  for (const line of text.split('\n')) if (line.trim() !== '') rows.push(JSON.parse(line) as ProgramRow);
  return rows;
}
