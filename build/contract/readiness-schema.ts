/** Dataset readiness, the paid-licensing gate (spec 2.9). Inner gate fields are ours to define (spec: not shown). */
import type { FromSchema } from 'json-schema-to-ts';
import { READINESS_CODES } from './vocab-enums.ts';

// Generic with `const` parameters so each gate's literal members reach FromSchema (the Readiness type).
const gate = <const P extends Record<string, object>, const R extends readonly (keyof P & string)[]>(properties: P, required: R) =>
  ({ type: 'object', additionalProperties: false, required: ['green', ...required], properties: { green: { type: 'boolean' }, ...properties } }) as const;

/** The readiness thresholds a dataset manifest sets and readiness echoes (spec 2.9 `thresholds`). */
export const readinessThresholdsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['minLicensedPrograms', 'minCitiesCovered', 'maxDeadLinkShare', 'maxUnverifiedShare', 'maxFactErrorRate', 'maxAuditAgeDays'],
  properties: {
    minLicensedPrograms: { type: 'integer', minimum: 0 },
    minCitiesCovered: { type: 'integer', minimum: 0 },
    maxDeadLinkShare: { type: 'number', minimum: 0, maximum: 1 },
    maxUnverifiedShare: { type: 'number', minimum: 0, maximum: 1 },
    maxFactErrorRate: { type: 'number', minimum: 0, maximum: 1 },
    maxAuditAgeDays: { type: 'integer', minimum: 1 },
  },
} as const;

/** Response of `/api/data/readiness`, also embedded as `paidLicensing` in dataset health. */
export const readinessSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'checkoutEnabled', 'code', 'checkedAt', 'readinessDigest', 'strictAudit', 'dataHealth', 'commercialRelease',
    'infrastructure', 'thresholds', 'reasons', 'buyerNotice',
  ],
  properties: {
    checkoutEnabled: { type: 'boolean' },
    code: { enum: READINESS_CODES },
    checkedAt: { type: 'string', format: 'date-time' },
    readinessDigest: { type: 'string', pattern: '^sha256:[a-f0-9]{64}$' },
    strictAudit: gate({
      present: { type: 'boolean' },
      artifact: { type: ['string', 'null'] },
      completedAt: { type: ['string', 'null'], format: 'date-time' },
      ageDays: { type: ['integer', 'null'], minimum: 0 },
      recordsAudited: { type: 'integer', minimum: 0 },
      factErrors: { type: 'integer', minimum: 0 },
      errorRate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
      // What the gate compares with maxFactErrorRate (docs/decisions.md "The strict fact audit").
      errorRateUpperBound: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    }, ['present', 'artifact', 'completedAt', 'ageDays', 'recordsAudited', 'factErrors', 'errorRate', 'errorRateUpperBound']),
    dataHealth: gate({
      licensedPrograms: { type: 'integer', minimum: 0 },
      citiesCovered: { type: 'integer', minimum: 0 },
      deadLinkShare: { type: 'number', minimum: 0, maximum: 1 },
      unverifiedShare: { type: 'number', minimum: 0, maximum: 1 },
    }, ['licensedPrograms', 'citiesCovered', 'deadLinkShare', 'unverifiedShare']),
    commercialRelease: gate({
      approved: { type: 'boolean' },
      decidedAt: { type: 'string', format: 'date' },
      note: { type: 'string' },
    }, ['approved', 'decidedAt', 'note']),
    infrastructure: {
      type: 'object',
      additionalProperties: false,
      required: ['sharedRateLimitStorage', 'rateLimitStorageScheme', 'trustedOriginProxyConfigured'],
      properties: {
        sharedRateLimitStorage: { type: 'boolean' },
        rateLimitStorageScheme: { enum: ['memory', 'redis'] },
        trustedOriginProxyConfigured: { type: 'boolean' },
        // Not required: the spec requires only the three members above. Every gateway reports them; no gate reads them.
        sharedKeyStorage: { type: 'boolean' },
        keyStorageScheme: { enum: ['sqlite', 'postgres'] },
      },
    },
    thresholds: readinessThresholdsSchema,
    reasons: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      },
    },
    buyerNotice: { type: 'string' },
  },
} as const;

/** The readiness envelope, typed from its schema. */
export type Readiness = FromSchema<typeof readinessSchema>;
