/**
 * Digest of the enrichment implementation (spec 9.3): the source of every rule that shapes served bytes,
 * so that changing a derivation rule changes the revision even when the corpus does not change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalDigest, sha256Hex } from './canonical-digest.ts';

/** Folders, relative to `build/`, whose sources are the enrichment implementation. */
export const ENRICHMENT_FOLDERS = ['derive', 'contract'] as const;

/**
 * Maps `build/<folder>/<file>` to the SHA-256 of its text with line endings normalized to LF (so a checkout
 * on any platform digests alike), and digests that map canonically.
 */
export function computeEnrichmentDigest(buildRoot: string = fileURLToPath(new URL('..', import.meta.url))): { digest: string; files: Record<string, string> } {
  const files: Record<string, string> = {};
  for (const folder of ENRICHMENT_FOLDERS) {
    for (const name of readdirSync(`${buildRoot}/${folder}`).sort()) {
      if (!name.endsWith('.ts')) continue;
      const text = readFileSync(`${buildRoot}/${folder}/${name}`, 'utf8').replace(/\r\n/g, '\n');
      files[`build/${folder}/${name}`] = sha256Hex(text);
    }
  }
  return { digest: canonicalDigest(files), files };
}
