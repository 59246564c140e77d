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
    docs: { type: 'string', format: 'uri', description: 'The HTML reference of the deployment that built this revision (its `GET /docs`); present, with `openapi`, when the dataset names its public base URL.' },
    openapi: { type: 'string', format: 'uri', description: 'The OpenAPI document of that deployment (its `GET /openapi.json`); present exactly when `docs` is.' },
    sample: { type: 'boolean' },
    scope: { type: 'string' },
    version: { type: ['string', 'null'] },
  },
} as const;

/** The program-list envelope, typed from its schema. */
export type ProgramList = FromSchema<typeof programListSchema>;
