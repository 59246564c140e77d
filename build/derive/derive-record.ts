/** Turns one stored program row into the record the API serves, with everything counted about it. */
import type { Corpus, LinkCheck, ProgramRow, QuoteCheck, SourceReview } from '../corpus/corpus-types.ts';
import { programSchema, type Program } from '../contract/program-schema.ts';
import { serializeThroughSchema } from '../contract/serialize-through-schema.ts';
import { applyCorrections, indexCorrections, recordKey } from './apply-corrections.ts';
import { createExclusionClassifier, type Exclusion } from './classify-exclusion.ts';
import { deriveFreshness } from './derive-freshness.ts';
import type { Freshness } from './freshness-types.ts';
import { inferContractor } from './infer-contractor.ts';
import { latestReview } from './latest-review.ts';
import { deriveProgramFacets, type ProgramFacets } from './program-facets.ts';
import { groupBy } from './group-by.ts';

/** A served (or withheld) record: its response bytes, facets and the figures health counts. */
export interface DerivedRecord extends Pick<Program, 'id' | 'name' | 'url'> {
  exclusion: Exclusion;
  facets: ProgramFacets;
  /** The record serialized through the published Program schema. */
  body: string;
  freshness: Freshness;
  /** Class of the cited page per the latest live check, when there is one. */
  pageClass: 'program' | 'agency' | null;
  /** Who made the latest review: a model, a person, or a hand-typed line without provenance; null for none. */
  reviewedBy: ReviewerKind | null;
}

/** The kinds of reviewer health counts: `unattributed` is a hand-typed line without `reviewer`. */
export type ReviewerKind = 'model' | 'person' | 'unattributed';

/** Derives records of one corpus; `city` is a city slug or NATIONAL_SLUG. */
export type RecordDeriver = (city: string, row: ProgramRow, options?: { federalCanonical?: boolean }) => DerivedRecord;

/** The parts of a corpus derivation reads (what the build's worker threads are sent). */
export type DerivationInputs = Pick<Corpus, 'manifest' | 'linkChecks' | 'sourceReviews' | 'quoteChecks' | 'corrections' | 'adjacentRules' | 'quarantine'>;

/** Indexes the corpus's evidence, corrections and policy once, and returns the per-row derivation. */
export function createRecordDeriver(corpus: DerivationInputs): RecordDeriver {
  const checksByUrl = groupBy(corpus.linkChecks, (check) => check.url);
  const reviewsByRecord = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const quoteChecksByRecord = groupBy(corpus.quoteChecks, (check) => recordKey(check.city, check.programId));
  const correctionsByRecord = indexCorrections(corpus.corrections);
  const classifyExclusion = createExclusionClassifier(corpus.adjacentRules, corpus.quarantine);
  return (city, stored, options = {}) => {
    const key = recordKey(city, stored.id);
    const row = applyCorrections(stored, correctionsByRecord.get(key) ?? []);
    const linkChecks: readonly LinkCheck[] = row.url === null ? [] : (checksByUrl.get(row.url) ?? []);
    const reviews: readonly SourceReview[] = reviewsByRecord.get(key) ?? [];
    const quoteChecks: readonly QuoteCheck[] = quoteChecksByRecord.get(key) ?? [];
    const freshness = deriveFreshness({
      url: row.url,
      maxAmount: row.maxAmount,
      isFederalCanonical: options.federalCanonical === true,
      linkChecks,
      reviews,
      quoteChecks,
      asOf: corpus.manifest.asOf,
    });
    const contractor = inferContractor({
      name: row.name,
      description: row.description,
      category: row.category,
      maxAmountLabel: row.maxAmountLabel,
      matchRate: row.matchRate,
      projectTypes: row.projectTypes,
    });
    return {
      id: row.id,
      name: row.name,
      exclusion: classifyExclusion(city, row),
      facets: deriveProgramFacets(row),
      body: serializeThroughSchema(programSchema, { ...row, contractor, freshness }),
      freshness,
      url: row.url,
      pageClass: latestPageClass(linkChecks),
      reviewedBy: reviewerKind(latestReview(reviews)),
    };
  };
}

function reviewerKind(review: SourceReview | undefined): ReviewerKind | null {
  if (review === undefined) return null;
  return review.reviewer === undefined ? 'unattributed' : review.reviewer.kind;
}

function latestPageClass(checks: readonly LinkCheck[]): 'program' | 'agency' | null {
  let latest: LinkCheck | undefined;
  for (const check of checks) if (!latest || check.checkedAt >= latest.checkedAt) latest = check;
  return latest?.outcome === 'live' ? (latest.pageClass ?? null) : null;
}
