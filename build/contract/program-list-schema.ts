/** The program-list envelope of city collections, the national layer and the sample (spec 4.3). */
import type { FromSchema } from 'json-schema-to-ts';
import { REVISION_PATTERN } from './api-version.ts';
import { programSchema } from './program-schema.ts';

/** Response of `/api/programs/{city}`, `/api/programs`, `/api/programs/national` and `/api/sample`. */
export const programListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['city', 'count', 'datasetRevision', 'excludedBySafetyPolicy', 'exclusionPolicyVersion', 'programs'],
  properties: {
    city: { type: 'string' },
    count: { type: 'integer', minimum: 0 },
    datasetRevision: { type: 'string', pattern: REVISION_PATTERN },
    excludedBySafetyPolicy: { type: 'integer', minimum: 0 },
    exclusionPolicyVersion: { type: 'integer', minimum: 1 },
    programs: { type: 'array', items: programSchema },
    docs: { type: 'string', format: 'uri' },
    openapi: { type: 'string', format: 'uri' },
    sample: { type: 'boolean' },
    scope: { type: 'string' },
    version: { type: ['string', 'null'] },
  },
} as const;

/** The program-list envelope, typed from its schema. */
export type ProgramList = FromSchema<typeof programListSchema>;
