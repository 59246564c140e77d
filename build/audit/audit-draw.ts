/**
 * The draw file `hra audit sample` writes beside its worksheet (`<worksheet>.draw.json`): what the sample
 * was drawn with and from, so `hra audit publish` draws it again and refuses a worksheet that differs.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { compileOnFirstUse } from '../corpus/compile-on-first-use.ts';
import { AUDIT_STRATA } from './read-audit-frame.ts';
import { SAMPLE_ALGORITHM } from './draw-audit-sample.ts';

/** JSON Schema of a draw file. */
export const auditDrawSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['algorithm', 'seed', 'size', 'strata', 'frameDigest', 'frameSize', 'strataDrawn'],
  properties: {
    algorithm: { const: SAMPLE_ALGORITHM },
    seed: { type: 'string', minLength: 1 },
    size: { type: 'integer', minimum: 1 },
    strata: { enum: AUDIT_STRATA },
    frameDigest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
    frameSize: { type: 'integer', minimum: 1 },
    strataDrawn: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['stratum', 'population', 'sample'],
        properties: { stratum: { type: 'string' }, population: { type: 'integer', minimum: 1 }, sample: { type: 'integer', minimum: 0 } },
      },
    },
  },
} as const;

/** A draw file's contents. */
export type AuditDraw = FromSchema<typeof auditDrawSchema>;

const drawValidator = compileOnFirstUse(auditDrawSchema);

/** Parses a draw file's text; throws with `label` and the first schema violation. */
export function parseAuditDraw(text: string, label: string): AuditDraw {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${label}: not JSON: ${(error as Error).message}`);
  }
  const validate = drawValidator();
  if (!validate(value)) {
    const [first] = validate.errors ?? [];
    throw new Error(`${label}: ${first?.instancePath || '$'} ${first?.message ?? 'is not a draw file'}`);
  }
  return value as AuditDraw;
}

/** Where the draw file of a worksheet lies: beside it, named after it. */
export function auditDrawPath(worksheet: string): string {
  return `${worksheet}.draw.json`;
}
