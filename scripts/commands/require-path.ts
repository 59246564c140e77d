/**
 * Checks of the paths a command is given, made before any work so that a wrong path fails on one line
 * naming the flag and what is wrong (not `EISDIR`, `disk I/O error` or three "file is missing" lines).
 */
import { statSync } from 'node:fs';
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

/** Fails when `path` exists and is not a directory (an output directory is created when missing). */
export function requireOutputDirectory(source: string, path: string): void {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isDirectory()) throw new CliFailure(`${source} ${path}: exists and is not a directory`);
}
