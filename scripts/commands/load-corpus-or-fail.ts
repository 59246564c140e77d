/** Loads a corpus for a command, turning validation problems into the CLI's one-line failure. */
import { isAbsolute, relative, sep } from 'node:path';
import { CorpusInvalidError, formatProblem } from '../../build/corpus/corpus-problem.ts';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { findAsOfLag } from '../../build/corpus/find-as-of-lag.ts';
import { loadCorpus, type LoadCorpusOptions } from '../../build/corpus/load-corpus.ts';
import { CliFailure, progress } from '../cli-failure.ts';
import { requireDirectory } from './require-path.ts';

/** How many problems stderr lists before the failure line; a corpus broken wholesale would otherwise flood it. */
const LISTED_PROBLEMS = 100;

/**
 * Loads `dir`, given by the flag `source` (`--corpus`, `--template`). A missing directory fails as such,
 * before any file is read. On problems, prints every one in corpus order (up to LISTED_PROBLEMS, then a count
 * of the rest) to stderr, then fails naming the first, so the last stderr line stays the one clear line the
 * operator contract promises; the failure carries all of them for `--json`. Files are named as the user can
 * open them from the working directory (problemRoot). `programFileChecker`: where the program files are
 * checked (loadCorpus).
 */
export function loadCorpusOrFail(dir: string, source = '--corpus', programFileChecker?: LoadCorpusOptions['programFileChecker']): Corpus {
  requireDirectory(source, dir, 'corpus directory');
  try {
    const corpus = loadCorpus(dir, { onProgress: progress, programFileChecker, displayRoot: problemRoot(dir) });
    const lag = findAsOfLag(corpus);
    if (lag !== undefined) {
      progress(`corpus: warning: ${problemRoot(dir)}/manifest.json asOf ${lag.asOf} is older than evidence of ${lag.newest} (${lag.file}): ` +
        `review staleness is served counted from asOf, so set it to ${lag.newest} or later (hra links check moves it)`);
    }
    return corpus;
  } catch (error) {
    if (!(error instanceof CorpusInvalidError)) throw error;
    const listed = error.problems.slice(0, LISTED_PROBLEMS);
    for (const problem of listed) progress(formatProblem(problem));
    const unlisted = error.problems.length - listed.length;
    if (unlisted > 0) progress(`... and ${unlisted} more problems not listed here (--json lists every one)`);
    throw new CliFailure(`corpus is invalid: ${error.message}`, { problems: error.problems });
  }
}

/**
 * The corpus folder as problems name it: the path as typed when relative (it opens from here), an absolute
 * one made relative when it lies under the working directory, else absolute.
 */
export function problemRoot(dir: string, cwd = process.cwd()): string {
  if (!isAbsolute(dir)) return dir;
  const inside = relative(cwd, dir);
  return inside === '' ? '.' : inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside) ? dir : inside;
}
