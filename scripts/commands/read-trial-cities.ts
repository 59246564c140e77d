/** The live cities a trial key may name, read from the dataset a command was given (`hra keys create`, `npm start`). */
import { readLiveCitySlugs } from '../../gateway/keys/live-city-slugs.ts';
import { CliFailure } from '../cli-failure.ts';
import { requireFile } from './require-path.ts';

/** Reads the live city slugs of the snapshot at `path` (from `source`: `--dataset`, `HRA_DATASET`, a default); any failure is one line naming both. */
export function readTrialCities(source: string, path: string): ReadonlySet<string> {
  requireFile(source, path, 'snapshot file');
  try {
    return readLiveCitySlugs(path);
  } catch (error) {
    throw new CliFailure(`${source} ${path}: cannot read its live cities: ${error instanceof Error ? error.message : String(error)}`);
  }
}
