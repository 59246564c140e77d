/**
 * The model reviewer's answer: the JSON Schema sent as the strict `response_format` and the one every
 * answer is validated against again here, since a server may ignore it. Published in corpus/README.md and
 * the operator contract. The bounds below are ours, checked after the answer's bytes were capped.
 */
import type { FromSchema } from 'json-schema-to-ts';

/** The schema the endpoint is asked to answer in (strict mode: every key required, no others). */
export const reviewAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['identity', 'amountQuote', 'statedAmount', 'rationale'],
  properties: {
    identity: { type: 'string', enum: ['match', 'mismatch', 'unsure'] },
    amountQuote: { type: ['string', 'null'] },
    statedAmount: { type: ['number', 'null'] },
    rationale: { type: 'string' },
  },
} as const;

/** A valid answer. */
export type ReviewAnswer = FromSchema<typeof reviewAnswerSchema>;

/** Longest amount quote accepted, in characters: a quote is a sentence, not a page. */
export const MAX_QUOTE_CHARS = 500;
/** Longest rationale accepted, in characters. */
export const MAX_RATIONALE_CHARS = 2000;

/** The answer as validated here: the sent schema with our bounds on its strings and numbers. */
export const acceptedAnswerSchema = {
  ...reviewAnswerSchema,
  properties: {
    ...reviewAnswerSchema.properties,
    amountQuote: { anyOf: [{ type: 'string', minLength: 1, maxLength: MAX_QUOTE_CHARS }, { type: 'null' }] },
    statedAmount: { anyOf: [{ type: 'number', exclusiveMinimum: 0, maximum: 1e9 }, { type: 'null' }] },
    rationale: { type: 'string', maxLength: MAX_RATIONALE_CHARS },
  },
} as const;
