/**
 * `npm start` never serves rehearsal data: a snapshot built from a corpus `hra rehearse` marked
 * (scripts/rehearse/rehearsal-marker.ts) is refused on one line, before a key is issued.
 */
import Database from 'better-sqlite3';
import { isRehearsalDataset } from '../rehearse/rehearsal-marker.ts';
import { CliFailure } from '../cli-failure.ts';

/** Throws a CliFailure when the snapshot at `path` (from `source`) holds rehearsal data; an unreadable file is left to the checks that follow. */
export function refuseRehearsalSnapshot(source: string, path: string): void {
  let dataset: unknown;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      dataset = db.prepare("SELECT value FROM meta WHERE key = 'dataset'").pluck().get();
    } finally {
      db.close();
    }
  } catch {
    return;
  }
  if (typeof dataset === 'string' && isRehearsalDataset(dataset)) {
    throw new CliFailure(`${source} ${path}: holds rehearsal data (dataset ${dataset}, written by hra rehearse); npm start never serves it (to look at it, run hra serve --dataset ${path})`);
  }
}
