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
        recordsAudited: { type: 'integer', minimum: 0 },
        factErrors: { type: 'integer', minimum: 0 },
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
