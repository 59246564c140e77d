/** Validates response bodies against the published contract schemas (the very objects the build uses). */
import * as assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { cityCountsSchema, cityListSchema } from '../../build/contract/city-schema.ts';
import { changeFeedSchema } from '../../build/contract/change-feed-schema.ts';
import { apiErrorSchema, trialScopeErrorSchema } from '../../build/contract/error-schema.ts';
import { healthSchema } from '../../build/contract/health-schema.ts';
import { programListSchema } from '../../build/contract/program-list-schema.ts';
import { programSchema } from '../../build/contract/program-schema.ts';
import { readinessSchema } from '../../build/contract/readiness-schema.ts';
import { jsonSchemaDocumentSchema } from '../../gateway/openapi/json-schema-document-schema.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);


const schemas = {
  program: programSchema,
  programList: programListSchema,
  cityList: cityListSchema,
  cityCounts: cityCountsSchema,
  changeFeed: changeFeedSchema,
  health: healthSchema,
  readiness: readinessSchema,
  apiError: apiErrorSchema,
  trialScopeError: trialScopeErrorSchema,
  jsonSchemaDocument: jsonSchemaDocumentSchema,
} as const;

/** Names of the response schemas tests can check against. */
export type ContractSchemaName = keyof typeof schemas;

const compiled = new Map<ContractSchemaName, ValidateFunction>();

/** Asserts that `body` matches the named contract schema, printing every violation when it does not. */
export function assertMatchesSchema(name: ContractSchemaName, body: unknown, where = ''): void {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(schemas[name]);
    compiled.set(name, validate);
  }
  const ok = validate(body);
  assert.ok(ok, `${where} body does not match ${name}: ${JSON.stringify(validate.errors, null, 1)}`);
}
