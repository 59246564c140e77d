/**
 * The `gm1-` dataset revision (spec 9.3): SHA-256 over the RFC 8785 encoding of a document that binds the
 * contract and revision scheme, the live-city corpus, evidence, corrections, policy and the enrichment
 * implementation. docs/auditors.md "The revision" specifies it byte by byte for auditors.
 */
import { API_VERSION, REVISION_SCHEME } from '../contract/api-version.ts';
import type { Revision } from '../contract/parse-revision.ts';
import type { Corpus, ProgramRow } from '../corpus/corpus-types.ts';
import { readCityPrograms } from '../corpus/read-city-programs.ts';
import { canonicalDigest, unorderedDigest } from './canonical-digest.ts';
import { computeEnrichmentDigest } from './enrichment-digest.ts';


/** The document whose canonical digest is the revision; every member is a lowercase SHA-256 hex digest. */
export interface RevisionDocument {
  scheme: typeof REVISION_SCHEME;
  contractVersion: string;
  manifest: string;
  vocabularies: string;
  policy: { adjacentScope: string; quarantine: string };
  cities: string;
  programs: Record<string, string>;
  national: string;
  evidence: { linkChecks: string; sourceReviews: string; quoteChecks: string };
  corrections: string;
  changes: string;
  reports: Record<string, string>;
  enrichment: string;
}

/** Digest of one live city's program rows, independent of their order in the file. */
export function cityProgramsDigest(rows: readonly ProgramRow[]): string {
  return unorderedDigest(rows);
}

/** The slugs of the licensed (live) cities, in code-point order. */
export function liveCitySlugs(corpus: Pick<Corpus, 'cities'>): string[] {
  return corpus.cities.filter((city) => city.status === 'live').map((city) => city.slug).sort();
}

/**
 * Computes the revision. `programDigests` lets a caller that already read every live city's rows (the
 * build) pass their digests instead of reading the files again.
 */
export function computeRevision(corpus: Corpus, programDigests?: ReadonlyMap<string, string>): { revision: Revision; document: RevisionDocument } {
  const programs: Record<string, string> = {};
  for (const slug of liveCitySlugs(corpus)) {
    programs[slug] = programDigests?.get(slug) ?? cityProgramsDigest(readCityPrograms(corpus, slug));
  }
  const reports: Record<string, string> = {};
  for (const [name, report] of Object.entries(corpus.reports)) reports[name] = canonicalDigest(report);
  const document: RevisionDocument = {
    scheme: REVISION_SCHEME,
    contractVersion: API_VERSION,
    manifest: canonicalDigest(corpus.manifest),
    vocabularies: canonicalDigest(corpus.vocabularies),
    policy: { adjacentScope: unorderedDigest(corpus.adjacentRules), quarantine: unorderedDigest(corpus.quarantine) },
    cities: unorderedDigest(corpus.cities.filter((city) => city.status === 'live')),
    programs,
    national: unorderedDigest(corpus.national),
    evidence: { linkChecks: unorderedDigest(corpus.linkChecks), sourceReviews: unorderedDigest(corpus.sourceReviews), quoteChecks: unorderedDigest(corpus.quoteChecks) },
    corrections: unorderedDigest(corpus.corrections),
    changes: unorderedDigest(corpus.changes),
    reports,
    enrichment: computeEnrichmentDigest().digest,
  };
  return { revision: `${REVISION_SCHEME}-${canonicalDigest(document)}` as Revision, document };
}
