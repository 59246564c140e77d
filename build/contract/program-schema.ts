/**
 * The Program record (spec 2.1-2.3): the schema served at `/api/dataset/schema`, published in OpenAPI,
 * used by the build to serialize every record (property order = serialized key order) and by tests.
 */
import type { FromSchema } from 'json-schema-to-ts';
import {
  CONFIDENCE_TIERS, CONTRACTOR_REQUIREMENTS, DISBURSEMENTS, FUNDING_STATUSES, LINK_STATUSES, REPAYMENTS,
} from './vocab-enums.ts';
import { JSON_SCHEMA_DIALECT } from './api-version.ts';

const nullableDate = { type: ['string', 'null'], format: 'date' } as const;

/** Spec 2.2: evidence of freshness attached to every served record. */
export const freshnessSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['linkStatus', 'confidence'],
  properties: {
    linkStatus: { enum: LINK_STATUSES },
    confidence: {
      enum: CONFIDENCE_TIERS,
      description: 'The strongest tier the evidence supports (spec 2.2). `source-verified` needs a live link, a review younger than 90 days, sourceAmountVerified and sourceQuoteVerified.',
    },
    lastChecked: nullableDate,
    sourceReviewed: { type: 'boolean' },
    sourceReviewStale: { type: 'boolean' },
    sourceProgramVerified: { type: 'boolean' },
    sourceAmountVerified: {
      type: 'boolean',
      description: 'True only when the latest review is an amount review judged a match and its quote states exactly the current maxAmount.',
    },
    sourceVerified: { type: 'boolean', description: 'Always equal to sourceAmountVerified.' },
    sourceQuoteVerified: {
      type: 'boolean',
      description: 'True only when sourceAmountVerified and the quote was found in the cited page\'s text. The latest conclusive mechanical quote check of the current quote on the current URL decides (found: true, not-found: false); an inconclusive check changes nothing; a quote never checked mechanically keeps the reviewer\'s recorded finding.',
    },
    sourceEvidence: { type: ['string', 'null'] },
    sourceVerifiedAmount: { type: ['string', 'null'] },
    sourceVerifiedAt: nullableDate,
  },
} as const;

/** Spec 2.3: serve-time contractor classification inferred from program text. */
export const contractorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['requirement', 'disbursement'],
  properties: {
    requirement: { enum: CONTRACTOR_REQUIREMENTS },
    disbursement: { enum: DISBURSEMENTS },
    contractorRequired: { type: 'boolean' },
    fundsContractorWork: { type: 'boolean' },
    hasCashGap: { type: 'boolean' },
    repayment: { enum: REPAYMENTS },
    requiresBidToApply: { type: 'boolean' },
  },
} as const;

/**
 * The record's own fields (spec 2.1), in serialized order: everything but the derived `contractor` and
 * `freshness`. The corpus row schema (build/corpus/corpus-schemas.ts) is these same fields with the stricter
 * constraints a maintainer's input must meet, so a field is added or retyped here, once.
 */
export const programFieldProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  source: { type: 'string' },
  eligibilityType: { type: 'array', items: { type: 'string' } },
  fundingStatus: { enum: FUNDING_STATUSES },
  url: { type: ['string', 'null'], format: 'uri' },
  category: { type: 'string' },
  deadline: { type: ['string', 'null'] },
  deadline_es: { type: ['string', 'null'] },
  description: { type: 'string' },
  description_es: { type: 'string' },
  incomeRequirement: { type: 'string' },
  matchRate: { type: ['number', 'string', 'null'] },
  maxAmount: { type: ['number', 'null'] },
  maxAmountLabel: { type: 'string' },
  maxAmountLabel_es: { type: 'string' },
  phone: { type: ['string', 'null'] },
  projectTypes: { type: 'array', items: { type: 'string' } },
  specialPopulations: { type: 'array', items: { type: 'string' } },
} as const;

const programProperties = {
  ...programFieldProperties,
  contractor: contractorSchema,
  freshness: freshnessSchema,
} as const;

/** The fields every record has, served or stored. */
export const programRequired = ['id', 'name', 'source', 'eligibilityType', 'fundingStatus', 'url'] as const;

/** The Program record schema, embeddable (no `$id`) in envelopes and OpenAPI components. */
export const programSchema = {
  type: 'object',
  additionalProperties: false,
  required: programRequired,
  properties: programProperties,
} as const;

/** Spec 2.4: a flat-export row is a Program plus the live-city slug it belongs to. */
export const exportRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['city', ...programRequired],
  properties: { city: { type: 'string' }, ...programProperties },
} as const;

/** The standalone document served at `/api/dataset/schema` (spec 2.5). */
export const programSchemaDocument = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: 'urn:home-repair-api:schema:program:1',
  title: 'Program',
  description: 'A home-repair assistance program record as served by the licensed API. A schema is not an offer, a delivery receipt or a source-rights approval.',
  ...programSchema,
} as const;

/** The standalone document served at `/api/dataset/export-schema` (spec 2.4, 2.5). */
export const exportRowSchemaDocument = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: 'urn:home-repair-api:schema:export-row:1',
  title: 'ExportRow',
  description: 'One flat-export row: a Program plus its licensed live-city slug. A schema is not an offer, a delivery receipt or a source-rights approval.',
  ...exportRowSchema,
} as const;

/** The served Program record, typed from its schema. */
export type Program = FromSchema<typeof programSchema>;

/** One flat-export row, typed from its schema. */
export type ExportRow = FromSchema<typeof exportRowSchema>;
