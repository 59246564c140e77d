/** Error bodies (spec 2.10, 7). */
import type { FromSchema } from 'json-schema-to-ts';

/** Every error body: `error` message, a stable `code` clients branch on. */
export const apiErrorSchema = {
  type: 'object',
  additionalProperties: true,
  required: ['error'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string' },
    note: { type: 'string' },
    allowedCitySlugs: { type: 'array', items: { type: 'string' }, maxItems: 5 },
  },
} as const;

/** The 403 body of trial-scope refusals. */
export const trialScopeErrorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'code'],
  properties: {
    error: { type: 'string' },
    code: { enum: ['API_TRIAL_POLICY_INVALID', 'API_TRIAL_CITY_REQUIRED', 'API_TRIAL_CITY_FORBIDDEN'] },
    allowedCitySlugs: { type: 'array', items: { type: 'string' }, maxItems: 5 },
  },
} as const;

/** Any error body, typed from its schema. */
export type ApiErrorBody = FromSchema<typeof apiErrorSchema>;

/** The trial-scope 403 body, typed from its schema. */
export type TrialScopeErrorBody = FromSchema<typeof trialScopeErrorSchema>;
