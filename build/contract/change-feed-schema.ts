/** Change events and the change feed envelope (spec 2.7, 4.3). */
import type { FromSchema } from 'json-schema-to-ts';
import { REVISION_PATTERN } from './api-version.ts';

/** One change event. Serialized in this property order. */
export const changeEventSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'detectedAt', 'city', 'programName', 'type', 'fromStatus', 'toStatus'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    detectedAt: { type: 'string', format: 'date-time' },
    city: { type: 'string' },
    programId: { type: 'string' },
    programName: { type: ['string', 'null'] },
    type: { type: 'string' },
    fromStatus: { type: ['string', 'null'] },
    toStatus: { type: ['string', 'null'] },
    fromAmount: { type: ['number', 'null'] },
    toAmount: { type: ['number', 'null'] },
  },
} as const;

/** Response of `/api/changes`. */
export const changeFeedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['changes', 'count', 'datasetRevision', 'since', 'windowStart', 'snapshotMaxId', 'hasMore', 'nextCursor', 'scopeNote', 'note'],
  properties: {
    changes: { type: 'array', items: changeEventSchema },
    count: { type: 'integer', minimum: 0 },
    datasetRevision: { type: 'string', pattern: REVISION_PATTERN },
    since: { type: ['string', 'null'], format: 'date' },
    windowStart: { type: 'string', format: 'date-time' },
    snapshotMaxId: { type: 'integer', minimum: 0 },
    hasMore: { type: 'boolean' },
    nextCursor: { type: ['string', 'null'] },
    scopeNote: { type: 'string' },
    note: { type: ['string', 'null'] },
  },
} as const;

/** One served change event, typed from its schema. */
export type ChangeEvent = FromSchema<typeof changeEventSchema>;

/** The change feed envelope, typed from its schema. */
export type ChangeFeed = FromSchema<typeof changeFeedSchema>;
