/** City resources and their envelopes (spec 2.6, 2.10). */
import type { FromSchema } from 'json-schema-to-ts';
import { REVISION_PATTERN } from './api-version.ts';

const cityProperties = {
  slug: { type: 'string' },
  name: { type: 'string' },
  state: { type: 'string' },
  stateAbbr: { type: 'string', minLength: 2, maxLength: 2 },
  status: { enum: ['live'] },
  description: { type: 'string' },
  lastUpdated: { type: 'string', format: 'date' },
  lat: { type: 'number', minimum: -90, maximum: 90 },
  lng: { type: 'number', minimum: -180, maximum: 180 },
  medianHomeValue: { type: 'integer', minimum: 0 },
  population: { type: 'integer', minimum: 0 },
  preWarHousingPct: { type: 'integer', minimum: 0, maximum: 100 },
} as const;

const cityRequired = ['slug', 'name', 'state', 'stateAbbr', 'status'] as const;

/** A licensed live city. */
export const citySchema = {
  type: 'object',
  additionalProperties: false,
  required: cityRequired,
  properties: cityProperties,
} as const;

/** A licensed live city with its count of safe, actionable programs. */
export const cityWithCountSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...cityRequired, 'programCount'],
  properties: { ...cityProperties, programCount: { type: 'integer', minimum: 0 } },
} as const;

const revision = { type: 'string', pattern: REVISION_PATTERN } as const;

/** Response of `/api/cities`. */
export const cityListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cities', 'count', 'datasetRevision'],
  properties: { cities: { type: 'array', items: citySchema }, count: { type: 'integer', minimum: 0 }, datasetRevision: revision },
} as const;

/** Response of `/api/cities/counts`. */
export const cityCountsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cities', 'count', 'datasetRevision', 'totalPrograms'],
  properties: {
    cities: { type: 'array', items: cityWithCountSchema },
    count: { type: 'integer', minimum: 0 },
    datasetRevision: revision,
    totalPrograms: { type: 'integer', minimum: 0 },
  },
} as const;

/** A licensed live city, typed from its schema. */
export type City = FromSchema<typeof citySchema>;

/** The `/api/cities` envelope, typed from its schema. */
export type CityList = FromSchema<typeof cityListSchema>;

/** The `/api/cities/counts` envelope, typed from its schema. */
export type CityCounts = FromSchema<typeof cityCountsSchema>;
