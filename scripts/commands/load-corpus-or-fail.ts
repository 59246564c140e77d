/** Loads a corpus for a command, turning validation problems into the CLI's one-line failure. */
import { CorpusInvalidError, formatProblem } from '../../build/corpus/corpus-problem.ts';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { CliFailure, progress } from '../cli-failure.ts';
import { requireDirectory } from './require-path.ts';

/**
 * Loads `dir`, given by the flag `source` (`--corpus`, `--template`). A missing directory fails as such,
 * before any file is read. On problems, prints every one but the first to stderr and fails with the
 * first, so the last stderr line stays the one clear line the operator contract promises; the failure
 * carries all of them for `--json`.
 */
export function loadCorpusOrFail(dir: string, source = '--corpus'): Corpus {
  requireDirectory(source, dir, 'corpus directory');
  try {
    return loadCorpus(dir, { onProgress: progress });
  } catch (error) {
    if (!(error instanceof CorpusInvalidError)) throw error;
    for (const problem of error.problems.slice(1)) progress(formatProblem(problem));
    throw new CliFailure(`corpus is invalid: ${error.message}`, { problems: error.problems });
  }
}
