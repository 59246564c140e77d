/** Flushes a file or a folder (a rename in it) to disk. */
import { closeSync, fsyncSync, openSync } from 'node:fs';

/** fsyncs `path`, a file or a directory. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
