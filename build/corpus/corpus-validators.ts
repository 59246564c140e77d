/**
 * The validator of each corpus schema, made once per thread when first asked for, so a thread pays only
 * for the schemas it uses. Running compiled, the validators are the standalone code `npm run compile`
 * generated from these same schemas (generate-standalone-validators.ts) and no thread compiles any; from
 * the sources, ajv compiles each one on first use.
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import { reportArtifactSchema } from '../contract/report-artifact-schema.ts';
import { RUNNING_COMPILED } from '../revision/compiled-sources.ts';
import {
  adjacentRuleSchema, changeEventRowSchema, cityRowSchema, correctionSchema, linkCheckSchema, manifestSchema,
  programRowSchema, quarantineEntrySchema, quoteCheckSchema, sourceReviewSchema, vocabulariesSchema,
} from './corpus-schemas.ts';

// Only the sources compile schemas: a compiled thread loads no ajv beyond the generated code's runtime.
const createAjv = RUNNING_COMPILED ? undefined : (await import('./create-ajv.ts')).createAjv;

/** Every schema a corpus file is validated against, by the name its validator is asked for. */
export const CORPUS_VALIDATED_SCHEMAS = {
  manifest: manifestSchema,
  vocabularies: vocabulariesSchema,
  cityRow: cityRowSchema,
  correction: correctionSchema,
  programRow: programRowSchema,
  adjacentRule: adjacentRuleSchema,
  quarantineEntry: quarantineEntrySchema,
  linkCheck: linkCheckSchema,
  sourceReview: sourceReviewSchema,
  quoteCheck: quoteCheckSchema,
  changeEventRow: changeEventRowSchema,
  reportArtifact: reportArtifactSchema,
} as const;

/** The name of a corpus schema's validator. */
export type CorpusSchemaName = keyof typeof CORPUS_VALIDATED_SCHEMAS;

/** The generated module's file name, beside this module's compiled JavaScript (CommonJS: loadable synchronously). */
export const STANDALONE_VALIDATORS_FILE = 'corpus-validators.standalone.cjs';

let standalone: Readonly<Record<string, ValidateFunction | undefined>> | undefined;
let ajv: Ajv | undefined;
const compiled = new Map<CorpusSchemaName, ValidateFunction>();

/** The validator of the corpus schema `name`, made on this thread's first call for it. */
export function corpusValidator(name: CorpusSchemaName): ValidateFunction {
  if (RUNNING_COMPILED) {
    standalone ??= createRequire(import.meta.url)(`./${STANDALONE_VALIDATORS_FILE}`) as Record<string, ValidateFunction | undefined>;
    const validate = standalone[name];
    if (validate === undefined) throw new Error(`no validator ${JSON.stringify(name)} in ${STANDALONE_VALIDATORS_FILE}: run npm run compile`);
    return validate;
  }
  let validate = compiled.get(name);
  if (validate === undefined) {
    ajv ??= createAjv!();
    validate = ajv.compile(CORPUS_VALIDATED_SCHEMAS[name]);
    compiled.set(name, validate);
  }
  return validate;
}
