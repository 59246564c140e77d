/** The build-side commands check, before any other work, that they can compute a true revision (docs/maintainers.md "Running hra"). */
import { compiledTreeState, RUNNING_COMPILED, StaleCompileError } from '../../build/revision/compiled-sources.ts';
import { computeEnrichmentDigest, EnrichmentSourcesMissingError } from '../../build/revision/enrichment-digest.ts';
import { CliFailure } from '../cli-failure.ts';

/**
 * Fails on one line when the TypeScript sources of the derivation rules are absent (a revision digests
 * them), or, when running compiled, when the sources on disk are not exactly those dist/js was compiled
 * from: a compiled `build`, `digest`, `verify` or `changes` then writes what the sources would write.
 */
export function requireBuildSources(): void {
  try {
    if (RUNNING_COMPILED) {
      const state = compiledTreeState();
      if (!state.current) throw new StaleCompileError(`cannot run compiled: ${state.reason}; run npm run compile, or run from the sources (npm run hra)`);
    }
    computeEnrichmentDigest();
  } catch (error) {
    if (error instanceof EnrichmentSourcesMissingError || error instanceof StaleCompileError) throw new CliFailure(error.message);
    throw error;
  }
}
