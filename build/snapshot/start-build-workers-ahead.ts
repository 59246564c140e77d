/**
 * Starts a build's worker threads before its corpus is loaded, and has them digest every program file
 * while the calling thread validates the corpus: the workers' start-up and the cities' revision digests
 * then overlap the load, which runs on one thread and left the other cores idle (BENCHMARKS.md, issue 25,
 * goal 2, second round). The digests are of the files as they are; the build keeps only those of files the
 * validated corpus reads from the same path (city-worker-pool.ts, CityWorkers.runner).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultBuildWorkers, startCityWorkers, type CityWorkers } from './city-worker-pool.ts';

/**
 * The workers a build of the corpus in `dir` will use, already digesting its program files; undefined when
 * the build would run on one thread (too few program files for workers, or no `programs` folder, which
 * the load reports).
 */
export function startBuildWorkersAhead(dir: string): CityWorkers | undefined {
  let names: string[];
  try {
    names = readdirSync(join(resolve(dir), 'programs'));
  } catch {
    return undefined;
  }
  // The paths the loader gives `programFiles` (load-corpus.ts), so the build can tell a digest is of its file.
  const files = new Map(names.filter((name) => name.endsWith('.ndjson')).sort().map((name) => [name.slice(0, -'.ndjson'.length), join(resolve(dir), 'programs', name)]));
  const workers = defaultBuildWorkers(files.size);
  if (workers === 0) return undefined;
  const started = startCityWorkers(workers);
  started.digestAhead(files);
  return started;
}
