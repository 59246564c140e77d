/** TypeScript views of the corpus files, derived from their JSON Schemas so the two never drift. */
import type { FromSchema } from 'json-schema-to-ts';
import type {
  adjacentRuleSchema, changeEventRowSchema, cityRowSchema, correctionSchema, linkCheckSchema, manifestSchema,
  programRowSchema, quarantineEntrySchema, quoteCheckSchema, sourceReviewSchema, vocabulariesSchema,
} from './corpus-schemas.ts';
import type { reportArtifactSchema, ReportName } from '../contract/report-artifact-schema.ts';

export type Manifest = FromSchema<typeof manifestSchema>;
export type CityRow = FromSchema<typeof cityRowSchema>;
export type AdjacentRule = FromSchema<typeof adjacentRuleSchema>;
export type QuarantineEntry = FromSchema<typeof quarantineEntrySchema>;
export type LinkCheck = FromSchema<typeof linkCheckSchema>;
export type SourceReview = FromSchema<typeof sourceReviewSchema>;
export type QuoteCheck = FromSchema<typeof quoteCheckSchema>;
export type Correction = FromSchema<typeof correctionSchema>;
export type Vocabularies = FromSchema<typeof vocabulariesSchema>;
export type ChangeEventRow = FromSchema<typeof changeEventRowSchema>;
export type ReportArtifact = FromSchema<typeof reportArtifactSchema>;

/**
 * A program row as stored. The row schema admits unknown keys (maintainers' notes), which FromSchema types
 * as `unknown` beside the known, fully typed fields; `freshness` and `contractor` come out as `undefined`.
 */
export type ProgramRow = FromSchema<typeof programRowSchema>;

/**
 * A whole corpus, loaded and validated. Program rows are not held: at ten times the published scale they
 * would not fit the build's memory budget, so readCityPrograms re-reads one city at a time.
 */
export interface Corpus {
  /** Absolute path of the corpus folder. */
  root: string;
  manifest: Manifest;
  cities: CityRow[];
  /** Absolute path of each city's program file, by slug, for the cities that have one. */
  programFiles: ReadonlyMap<string, string>;
  /** Program ids by city slug (the federal layer under NATIONAL_SLUG), for reference checks. */
  programIds: ReadonlyMap<string, ReadonlySet<string>>;
  national: ProgramRow[];
  adjacentRules: AdjacentRule[];
  quarantine: QuarantineEntry[];
  linkChecks: LinkCheck[];
  sourceReviews: SourceReview[];
  /** Mechanical quote checks (evidence/quote-checks.ndjson), in file order. */
  quoteChecks: QuoteCheck[];
  corrections: Correction[];
  vocabularies: Vocabularies;
  changes: ChangeEventRow[];
  reports: Partial<Record<ReportName, ReportArtifact>>;
}
