/**
 * A frozen report artifact (spec 4.2): read from `corpus/reports/<name>.json` by the build, served verbatim
 * by the gateway and published in its OpenAPI document, so the schema belongs to the contract.
 */

/**
 * `corpus/reports/<name>.json`: a frozen report artifact. Each publishes its own manifest (what it
 * measured and how) and its records; the fact audit also carries the summary readiness reads.
 */
export const reportArtifactSchema = {
  $id: 'corpus:report',
  type: 'object',
  additionalProperties: false,
  required: ['artifact', 'version', 'completedAt', 'manifest', 'records'],
  properties: {
    artifact: { type: 'string', minLength: 1 },
    version: { type: 'integer', minimum: 1 },
    completedAt: { type: 'string', format: 'date-time' },
    manifest: { type: 'object' },
    summary: {
      type: 'object',
      required: ['recordsAudited', 'factErrors'],
      properties: {
        recordsAudited: { type: 'integer', minimum: 0, description: 'Records with at least one field checked (match or mismatch); the fact audit counts records, not fields.' },
        factErrors: { type: 'integer', minimum: 0, description: 'Audited records with at least one field a mismatch.' },
        // Version 3 (hra audit publish) adds the members below; readiness compares errorRateUpperBound, and a
        // fact audit without it (version 2, hand-written) keeps the strict-audit gate red.
        recordsUnverifiable: { type: 'integer', minimum: 0, description: 'Sampled records whose every field was unverifiable on the archived page; not counted as audited.' },
        errorRate: { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'factErrors / recordsAudited, 4 decimals; null when nothing was audited.' },
        errorRateUpperBound: {
          type: ['number', 'null'],
          minimum: 0,
          maximum: 1,
          description: 'Upper end of the exact (Clopper-Pearson) two-sided 95% interval of the record error rate, rounded up to 6 decimals; null when nothing was audited. The readiness gate compares it with maxFactErrorRate.',
        },
        fieldErrors: {
          type: 'object',
          description: 'Per audited field: rows checked (match or mismatch), mismatches and unverifiable rows.',
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            required: ['checked', 'errors', 'unverifiable'],
            properties: { checked: { type: 'integer', minimum: 0 }, errors: { type: 'integer', minimum: 0 }, unverifiable: { type: 'integer', minimum: 0 } },
          },
        },
      },
    },
    records: { type: 'array', items: { type: 'object' } },
  },
} as const;

/** The report artifacts spec 4.2 serves, by file name under `corpus/reports/`. Each may be absent. */
export const REPORT_NAMES = [
  'fact-audit-latest',
  'fact-audit-legacy-2026-06-17',
  'state-home-improvement-2026',
] as const;

/** One of REPORT_NAMES. */
export type ReportName = (typeof REPORT_NAMES)[number];
