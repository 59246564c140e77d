/** TypeScript view of the spec 2.2 `freshness` object, derived from its published schema so the two never drift. */
import type { FromSchema } from 'json-schema-to-ts';
import type { freshnessSchema } from '../contract/program-schema.ts';

/** The `freshness` object deriveFreshness returns and the build serializes (schema property order = key order). */
export type Freshness = FromSchema<typeof freshnessSchema>;
