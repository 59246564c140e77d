/**
 * Checks of the paths a command is given, made before any work so that a wrong path fails on one line
 * naming the flag and what is wrong (not `EISDIR`, `disk I/O error` or three "file is missing" lines).
 */
import { closeSync, mkdirSync, openSync, rmdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildTemporaryPath } from '../../build/snapshot/sweep-stale-build-files.ts';
import { CliFailure } from '../cli-failure.ts';

/** `source` names where the path came from (`--dataset`, `HRA_DATASET`, `verify <file>`); `what` is what it should be. */
export function requireFile(source: string, path: string, what: string): void {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) throw new CliFailure(`${source} ${path}: ${what} not found`);
  if (stats.isDirectory()) throw new CliFailure(`${source} ${path}: is a directory, not a ${what}`);
}

/** Fails unless `path` is an existing directory. */
export function requireDirectory(source: string, path: string, what: string): void {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) throw new CliFailure(`${source} ${path}: ${what} not found`);
  if (!stats.isDirectory()) throw new CliFailure(`${source} ${path}: is a file, not a ${what}`);
}

/**
 * Makes sure `path` is a directory, creating its missing folders one level at a time, before any work:
 * Node's recursive mkdir loops forever, deaf to signals, on a path such as `/proc/nope` (each level
 * answers ENOENT), and a parent that is a file would otherwise surface later as a bare ENOTDIR. Returns a
 * function that removes the folders it created (if still empty), for a build that then fails.
 */
export function prepareOutputDirectory(source: string, path: string): () => void {
  const missing: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    const stats = statIfPresent(current);
    if (stats !== undefined) {
      if (stats.isDirectory()) break;
      const where = current === resolve(path) ? '' : ` ${current}`;
      throw new CliFailure(`${source} ${path}:${where} exists and is not a directory`);
    }
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  // A folder this process just made is writable; an existing one is tried before any work.
  if (missing.length === 0) requireWritable(source, path);
  const created: string[] = [];
  const removeCreated = () => {
    for (const folder of created.reverse()) {
      try {
        rmdirSync(folder);
      } catch {
        return; // no longer empty: something else wrote there, so it is not ours to remove
      }
    }
  };
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      removeCreated();
      throw new CliFailure(`${source} ${path}: cannot create the output folder: ${(error as Error).message}`);
    }
    created.push(folder);
  }
  return removeCreated;
}

/**
 * Fails unless a file can be created in the folder `path`, by creating and removing one: a mode bit says
 * too little (root writes into a 0555 folder, and nobody into a read-only file system), and the build
 * would otherwise find out only when SQLite cannot open its temporary file, after computing the revision.
 * The probe is named as a build's temporary files are (`.probe-<pid>-...`), so a build killed meanwhile has it
 * swept by the next.
 */
function requireWritable(source: string, path: string): void {
  const probe = buildTemporaryPath(path, 'probe');
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EROFS' ? 'read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    throw new CliFailure(`${source} ${path}: output folder is not writable (${reason})`);
  }
  rmSync(probe, { force: true });
}

/** `statSync`, with a path that does not exist (or runs through a file: ENOTDIR) as undefined. */
function statIfPresent(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
