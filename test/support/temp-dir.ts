/**
 * Temporary folders for tests, each removed when the test file's process exits, whether its tests passed,
 * failed or were cut short by an assertion: `node --test` runs every file in a process of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

function removeAll(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A new empty folder under the system's temporary folder, named `<prefix>XXXXXX`, removed at exit. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (made.length === 0) process.once('exit', removeAll);
  made.push(dir);
  return dir;
}
