/** A copy of the mini corpus whose manifest differs by a patch (a `publicBaseUrl`, say), in a fresh temporary folder. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINI_CORPUS } from './start-test-gateway.ts';

/** Copies MINI_CORPUS and merges `manifestPatch` into its manifest; the caller removes the folder. */
export function copyCorpusWith(manifestPatch: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hra-links-corpus-'));
  cpSync(MINI_CORPUS, dir, { recursive: true });
  const manifestFile = join(dir, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), ...manifestPatch }, null, 2));
  return dir;
}
