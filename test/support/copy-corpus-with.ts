/** A copy of the mini corpus whose manifest differs by a patch (a `publicBaseUrl`, say), in a fresh temporary folder. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINI_CORPUS } from './start-test-gateway.ts';
import { makeTempDir } from './temp-dir.ts';

/** Copies MINI_CORPUS and merges `manifestPatch` into its manifest; the caller removes the folder. */
export function copyCorpusWith(manifestPatch: Record<string, unknown>): string {
  const dir = makeTempDir('hra-links-corpus-');
  cpSync(MINI_CORPUS, dir, { recursive: true });
  const manifestFile = join(dir, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), ...manifestPatch }, null, 2));
  return dir;
}
