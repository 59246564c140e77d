/** Shared helpers of the synthetic-corpus tests: the template corpus, temp folders, file hashes. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after } from 'node:test';
import type { Corpus } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** The repository's demo corpus, the generator's default template. */
export const TEMPLATE_DIR = join(import.meta.dirname, '../../../corpus');

/** The demo corpus when it loads; otherwise why the synthetic tests skip (it is written by hand, elsewhere). */
export function loadTemplate(): { corpus: Corpus; skip: false } | { corpus: undefined; skip: string } {
  try {
    return { corpus: loadCorpus(TEMPLATE_DIR), skip: false };
  } catch (error) {
    return { corpus: undefined, skip: `template corpus ${TEMPLATE_DIR} does not load: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** A fresh temp folder, removed when the test file ends. */
export function tempDir(label: string): string {
  const dir = makeTempDir(`hra-synth-${label}-`);
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** sha256 of every file under `dir`, by relative path. */
export function hashTree(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hashes.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return new Map([...hashes].sort(([a], [b]) => (a < b ? -1 : 1)));
}
