/** Dataset health (spec 2.8). Inner fields of sourceVerification, factAccuracy and notes are ours to define. */
import type { FromSchema } from 'json-schema-to-ts';
import { REVISION_PATTERN } from './api-version.ts';
import { readinessSchema } from './readiness-schema.ts';
import { CONFIDENCE_TIERS } from './vocab-enums.ts';

const count = { type: 'integer', minimum: 0 } as const;

/** Row counts per link status. */
export const linkHealthCountsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['live', 'dead', 'bot-blocked', 'unchecked'],
  properties: { live: count, dead: count, 'bot-blocked': count, unchecked: count },
} as const;

const confidenceCounts = {
  type: 'object',
  additionalProperties: false,
  required: CONFIDENCE_TIERS,
  properties: Object.fromEntries(CONFIDENCE_TIERS.map((tier) => [tier, count])) as Record<(typeof CONFIDENCE_TIERS)[number], typeof count>,
} as const;

/** Response of `/api/dataset/health`. */
export const healthSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'dataset', 'datasetRevision', 'totalPrograms', 'licensedPrograms', 'quarantinedPrograms', 'outOfScopePrograms',
    'citiesCovered', 'linkHealth', 'licensedLinkHealth', 'sourceVerification', 'factAccuracy', 'paidLicensing', 'notes',
  ],
  properties: {
    dataset: { type: 'string' },
    datasetRevision: { type: 'string', pattern: REVISION_PATTERN },
    totalPrograms: count,
    licensedPrograms: count,
    quarantinedPrograms: count,
    outOfScopePrograms: count,
    citiesCovered: count,
    distinctPrograms: count,
    locallyUniquePrograms: count,
    licensedDistinctPrograms: count,
    licensedLocallyUniquePrograms: count,
    maintainedFederalCanonicalRows: count,
    nationalLayerRows: count,
    selectedNationalRows: count,
    lastLinkCheck: { type: ['string', 'null'], format: 'date' },
    linkHealth: linkHealthCountsSchema,
    licensedLinkHealth: linkHealthCountsSchema,
    licensedSourceClassCounts: { type: 'object', additionalProperties: count },
    licensedSourceDomainCounts: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } },
    sourceVerification: {
      type: 'object',
      additionalProperties: false,
      required: ['scope', 'confidence', 'reviewed', 'staleReviews', 'identityMatched', 'amountVerified', 'quoteVerified', 'asOf'],
      properties: {
        scope: { const: 'licensed' },
        confidence: confidenceCounts,
        reviewed: count,
        staleReviews: count,
        identityMatched: count,
        amountVerified: count,
        quoteVerified: count,
        // Licensed records by who made their latest review (issue 38); `unattributed`: a hand-typed line.
        reviewers: {
          type: 'object',
          additionalProperties: false,
          required: ['model', 'person', 'unattributed'],
          properties: { model: count, person: count, unattributed: count },
        },
        asOf: { type: 'string', format: 'date' },
      },
    },
    factAccuracy: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['artifact', 'completedAt', 'recordsAudited', 'factErrors', 'errorRate', 'errorRateUpperBound'],
          properties: {
            artifact: { type: 'string' },
            completedAt: { type: 'string', format: 'date-time' },
            recordsAudited: count,
            factErrors: count,
            errorRate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
            errorRateUpperBound: { type: ['number', 'null'], minimum: 0, maximum: 1 },
          },
        },
      ],
    },
    paidLicensing: readinessSchema,
    notes: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

/** The dataset health envelope, typed from its schema. */
export type Health = FromSchema<typeof healthSchema>;
