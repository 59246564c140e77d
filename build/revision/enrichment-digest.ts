/**
 * Digest of the enrichment implementation (spec 9.3): the source of every rule that shapes served bytes,
 * so that changing a derivation rule changes the revision even when the corpus does not change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalDigest, sha256Hex } from './canonical-digest.ts';
import { COMPILED_DIR, PACKAGE_ROOT, readCompileManifest, RUNNING_COMPILED, StaleCompileError } from './compiled-sources.ts';

/** Thrown when the derivation sources are absent (a compiled tree shipped without them): an expected refusal, not a bug. */
export class EnrichmentSourcesMissingError extends Error {
  override readonly name = 'EnrichmentSourcesMissingError';
}

/** Folders, relative to `build/`, whose sources are the enrichment implementation. */
export const ENRICHMENT_FOLDERS = ['derive', 'contract'] as const;

/**
 * Maps `build/<folder>/<file>` to the SHA-256 of its text with line endings normalized to LF (so a checkout
 * on any platform digests alike), and digests that map canonically.
 *
 * Without `buildRoot`, the digest of the code that is running: the TypeScript sources in the package
 * root's build/ in either case (an auditor reproduces it from a clone), and when running compiled only if
 * they are the sources dist/js was compiled from (its compile manifest), so that a stale compile cannot
 * publish a revision claiming sources whose rules it does not run.
 */
export function computeEnrichmentDigest(buildRoot?: string): { digest: string; files: Record<string, string> } {
  const computed = digestSources(buildRoot ?? join(PACKAGE_ROOT, 'build'));
  if (buildRoot === undefined && RUNNING_COMPILED) {
    const compiledFrom = readCompileManifest()?.enrichment;
    if (compiledFrom !== computed.digest) {
      throw new StaleCompileError(compiledFrom === undefined
        ? `no compile manifest in ${join(PACKAGE_ROOT, COMPILED_DIR)}: run npm run compile, or run from the sources (npm run hra)`
        : `the sources in ${join(PACKAGE_ROOT, 'build')}/{${ENRICHMENT_FOLDERS.join(',')}} are not those ${COMPILED_DIR} was compiled from (enrichment ${computed.digest.slice(0, 12)}, compiled ${compiledFrom.slice(0, 12)}): run npm run compile, or run from the sources (npm run hra)`);
    }
  }
  return computed;
}

function digestSources(buildRoot: string): { digest: string; files: Record<string, string> } {
  const files: Record<string, string> = {};
  for (const folder of ENRICHMENT_FOLDERS) {
    let names: string[] = [];
    try {
      names = readdirSync(join(buildRoot, folder)).sort().filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // A compiled tree shipped without its sources has nothing to digest: a revision computed there would
    // silently differ from the one the sources give.
    if (names.length === 0) throw new EnrichmentSourcesMissingError(`no TypeScript sources in ${join(buildRoot, folder)}: a revision digests them, so build-side commands run only beside the sources`);
    for (const name of names) {
      const text = readFileSync(`${buildRoot}/${folder}/${name}`, 'utf8').replace(/\r\n/g, '\n');
      files[`build/${folder}/${name}`] = sha256Hex(text);
    }
  }
  return { digest: canonicalDigest(files), files };
}
