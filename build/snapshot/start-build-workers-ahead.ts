/**
 * Starts a build's worker threads before its corpus is loaded. The loader hands them the program files to
 * check (CityWorkers.checkFiles) as soon as it knows the rules they are checked against, and they digest
 * each file in the same read and parse: the workers' start-up, the rows' checks and the cities' revision
 * digests then run beside the load of the other files on the calling thread, which would otherwise do the
 * checks alone (BENCHMARKS.md, issue 25, goal 2, second and third rounds).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultBuildWorkers, startCityWorkers, type CityWorkers } from './city-worker-pool.ts';

/**
 * The workers a build of the corpus in `dir` will use, started and waiting for the loader's checks;
 * undefined when the build would run on one thread (too few program files for workers, or no `programs`
 * folder, which the load reports).
 */
export function startBuildWorkersAhead(dir: string): CityWorkers | undefined {
  let names: string[];
  try {
    names = readdirSync(join(resolve(dir), 'programs'));
  } catch {
    return undefined;
  }
  const workers = defaultBuildWorkers(names.filter((name) => name.endsWith('.ndjson')).length);
  return workers === 0 ? undefined : startCityWorkers(workers);
}
