/** The version `hra --version` prints: package.json's, read at run time so it cannot drift from it. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads `version` from the nearest package.json above `from` (this file by default), which is the
 * project's both for the sources (scripts/) and for the compiled tree (dist/js/scripts/).
 */
export function packageVersion(from: string = fileURLToPath(import.meta.url)): string {
  for (let folder = dirname(from); ; folder = dirname(folder)) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
      if (typeof version !== 'string') throw new Error(`${file} has no version`);
      return version;
    }
    if (dirname(folder) === folder) throw new Error(`no package.json above ${from}`);
  }
}
