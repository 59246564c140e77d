/** Loads a corpus for a command, turning validation problems into the CLI's one-line failure. */
import { CorpusInvalidError, formatProblem } from '../../build/corpus/corpus-problem.ts';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { loadCorpus, type LoadCorpusOptions } from '../../build/corpus/load-corpus.ts';
import { CliFailure, progress } from '../cli-failure.ts';
import { requireDirectory } from './require-path.ts';

/** How many problems stderr lists before the failure line; a corpus broken wholesale would otherwise flood it. */
const LISTED_PROBLEMS = 100;

/**
 * Loads `dir`, given by the flag `source` (`--corpus`, `--template`). A missing directory fails as such,
 * before any file is read. On problems, prints every one but the first (up to LISTED_PROBLEMS, then a count of
 * the rest) to stderr and fails with the first, so the last stderr line stays the one clear line the operator contract promises; the failure
 * carries all of them for `--json`. `programFileChecker`: where the program files are checked (loadCorpus).
 */
export function loadCorpusOrFail(dir: string, source = '--corpus', programFileChecker?: LoadCorpusOptions['programFileChecker']): Corpus {
  requireDirectory(source, dir, 'corpus directory');
  try {
    return loadCorpus(dir, { onProgress: progress, programFileChecker });
  } catch (error) {
    if (!(error instanceof CorpusInvalidError)) throw error;
    const listed = error.problems.slice(1, 1 + LISTED_PROBLEMS);
    for (const problem of listed) progress(formatProblem(problem));
    const unlisted = error.problems.length - 1 - listed.length;
    if (unlisted > 0) progress(`... and ${unlisted} more problems not listed here (--json lists every one)`);
    throw new CliFailure(`corpus is invalid: ${error.message}`, { problems: error.problems });
  }
}
