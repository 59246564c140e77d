/** TypeScript view of the spec 2.3 `contractor` object, derived from its published schema so the two never drift. */
import type { FromSchema } from 'json-schema-to-ts';
import type { contractorSchema } from '../contract/program-schema.ts';

/** The `contractor` object inferContractor returns and the build serializes (schema property order = key order). */
export type Contractor = FromSchema<typeof contractorSchema>;
