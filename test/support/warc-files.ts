/** The WARC files of an evidence archive, as tests look for them. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Absolute paths, sorted, of the files under `archive`/warc whose names end in `suffix` (closed files by default). */
export function warcFiles(archive: string, suffix = '.warc.gz'): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith(suffix)) found.push(join(dir, entry.name));
    }
  };
  if (existsSync(join(archive, 'warc'))) walk(join(archive, 'warc'));
  return found.sort();
}
