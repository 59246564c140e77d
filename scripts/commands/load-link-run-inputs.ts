/**
 * Loads the corpus for `hra links check` and keeps only what choosing its targets reads. The load validates
 * every file, but change events, program-id sets, reports and vocabularies are read by no later step of the
 * run: at ten times the published scale the first two held 40 MiB each through the start-up peak
 * (BENCHMARKS.md, "Link check at ten times the scale"). Once this returns, nothing holds them.
 */
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

/** The parts of a corpus `links check` reads after its load. */
export type LinkRunInputs = Pick<Corpus, 'root' | 'manifest' | 'cities' | 'programFiles' | 'national' | 'adjacentRules' | 'quarantine' | 'linkChecks' | 'sourceReviews' | 'quoteChecks' | 'corrections'>;

/** Loads `dir` (a CliFailure when invalid, loadCorpusOrFail) and returns LinkRunInputs; `load` is replaced in tests. */
export function loadLinkRunInputs(dir: string, load: (dir: string) => Corpus = loadCorpusOrFail): LinkRunInputs {
  const { root, manifest, cities, programFiles, national, adjacentRules, quarantine, linkChecks, sourceReviews, quoteChecks, corrections } = load(dir);
  return { root, manifest, cities, programFiles, national, adjacentRules, quarantine, linkChecks, sourceReviews, quoteChecks, corrections };
}
