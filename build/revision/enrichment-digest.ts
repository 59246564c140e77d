/**
 * Digest of the enrichment implementation (spec 9.3): the source of every rule that shapes served bytes,
 * so that changing a derivation rule changes the revision even when the corpus does not change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalDigest, sha256Hex } from './canonical-digest.ts';

/** Thrown when the derivation sources are absent (the compiled tree): an expected refusal, not a bug. */
export class EnrichmentSourcesMissingError extends Error {
  override readonly name = 'EnrichmentSourcesMissingError';
}

/** Folders, relative to `build/`, whose sources are the enrichment implementation. */
export const ENRICHMENT_FOLDERS = ['derive', 'contract'] as const;

/**
 * Maps `build/<folder>/<file>` to the SHA-256 of its text with line endings normalized to LF (so a checkout
 * on any platform digests alike), and digests that map canonically.
 */
export function computeEnrichmentDigest(buildRoot: string = fileURLToPath(new URL('..', import.meta.url))): { digest: string; files: Record<string, string> } {
  const files: Record<string, string> = {};
  for (const folder of ENRICHMENT_FOLDERS) {
    const names = readdirSync(join(buildRoot, folder)).sort().filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
    // The compiled JavaScript (npm run compile) has no sources to digest: a revision computed there would
    // silently differ. Only the gateway runs compiled; the build runs from the sources.
    if (names.length === 0) throw new EnrichmentSourcesMissingError(`no TypeScript sources in ${join(buildRoot, folder)}: run the build from the sources (npm run hra), not the compiled output`);
    for (const name of names) {
      const text = readFileSync(`${buildRoot}/${folder}/${name}`, 'utf8').replace(/\r\n/g, '\n');
      files[`build/${folder}/${name}`] = sha256Hex(text);
    }
  }
  return { digest: canonicalDigest(files), files };
}
