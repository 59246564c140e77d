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

/** Derives only a record's freshness (what its tier rests on), exactly as its RecordDeriver does, without its body. */
export type FreshnessDeriver = (city: string, row: ProgramRow, options?: { federalCanonical?: boolean }) => Freshness;

/** What freshness reads of a corpus. */
export type FreshnessInputs = Pick<DerivationInputs, 'manifest' | 'linkChecks' | 'sourceReviews' | 'quoteChecks' | 'corrections'>;

/** A row after its corrections, with the evidence its freshness is derived from. */
interface RowEvidence {
  row: ProgramRow;
  linkChecks: readonly LinkCheck[];
  reviews: readonly SourceReview[];
  freshness: Freshness;
}

/** Indexes the evidence and corrections once; the returned function reads one row's, the one rule of both derivers. */
function createRowEvidence(corpus: FreshnessInputs): (city: string, stored: ProgramRow, federalCanonical: boolean) => RowEvidence {
  const checksByUrl = groupBy(corpus.linkChecks, (check) => check.url);
  const reviewsByRecord = groupBy(corpus.sourceReviews, (review) => recordKey(review.city, review.programId));
  const quoteChecksByRecord = groupBy(corpus.quoteChecks, (check) => recordKey(check.city, check.programId));
  const correctionsByRecord = indexCorrections(corpus.corrections);
  return (city, stored, federalCanonical) => {
    const key = recordKey(city, stored.id);
    const row = applyCorrections(stored, correctionsByRecord.get(key) ?? []);
    const linkChecks: readonly LinkCheck[] = row.url === null ? [] : (checksByUrl.get(row.url) ?? []);
    const reviews: readonly SourceReview[] = reviewsByRecord.get(key) ?? [];
    const quoteChecks: readonly QuoteCheck[] = quoteChecksByRecord.get(key) ?? [];
    const freshness = deriveFreshness({
      url: row.url,
      maxAmount: row.maxAmount,
      isFederalCanonical: federalCanonical,
      linkChecks,
      reviews,
      quoteChecks,
      asOf: corpus.manifest.asOf,
    });
    return { row, linkChecks, reviews, freshness };
  };
}

/**
 * The freshness of each row, without serializing the record: the review queue asks what tier a record would
 * hold without its reviews, and deriving the whole record for that was a fifth of `hra reviews due`.
 */
export function createFreshnessDeriver(corpus: FreshnessInputs): FreshnessDeriver {
  const evidenceOf = createRowEvidence(corpus);
  return (city, stored, options = {}) => evidenceOf(city, stored, options.federalCanonical === true).freshness;
}

/** Indexes the corpus's evidence, corrections and policy once, and returns the per-row derivation. */
export function createRecordDeriver(corpus: DerivationInputs): RecordDeriver {
  const evidenceOf = createRowEvidence(corpus);
  const classifyExclusion = createExclusionClassifier(corpus.adjacentRules, corpus.quarantine);
  return (city, stored, options = {}) => {
    const { row, linkChecks, reviews, freshness } = evidenceOf(city, stored, options.federalCanonical === true);
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
