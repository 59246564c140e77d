/** The build-side commands refuse to run compiled (README "Running in production"), before any other work. */
import { computeEnrichmentDigest, EnrichmentSourcesMissingError } from '../../build/revision/enrichment-digest.ts';
import { CliFailure } from '../cli-failure.ts';

/**
 * Fails on one line when the TypeScript sources of the derivation rules are absent: a revision digests
 * them, so `build`, `digest`, `verify` and `changes` cannot run from the compiled tree.
 */
export function requireBuildSources(): void {
  try {
    computeEnrichmentDigest();
  } catch (error) {
    if (error instanceof EnrichmentSourcesMissingError) throw new CliFailure(error.message);
    throw error;
  }
}
