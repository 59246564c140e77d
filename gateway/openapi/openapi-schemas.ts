/**
 * `components.schemas` of the OpenAPI description: the contract's own `as const` objects, by reference,
 * never copies (STYLE 8). Only the report artifact is derived, to drop the corpus-internal `$id`.
 */
import { changeEventSchema, changeFeedSchema } from '../../build/contract/change-feed-schema.ts';
import { cityCountsSchema, cityListSchema, citySchema, cityWithCountSchema } from '../../build/contract/city-schema.ts';
import { apiErrorSchema, trialScopeErrorSchema } from '../../build/contract/error-schema.ts';
import { healthSchema, linkHealthCountsSchema } from '../../build/contract/health-schema.ts';
import { programListSchema } from '../../build/contract/program-list-schema.ts';
import { contractorSchema, exportRowSchema, freshnessSchema, programSchema } from '../../build/contract/program-schema.ts';
import { readinessSchema } from '../../build/contract/readiness-schema.ts';
import { reportArtifactSchema } from '../../build/corpus/corpus-schemas.ts';
import { jsonSchemaDocumentSchema } from './json-schema-document-schema.ts';

// The corpus `$id` ("corpus:report") names a build-time validator, not a published resource.
const { $id: _corpusId, ...reportArtifact } = reportArtifactSchema;

/** The report artifact as published: the frozen corpus shape without its build-time `$id`. */
export const publishedReportArtifactSchema = reportArtifact;

/** Component name -> schema object; names are what responses `$ref`. */
export const openApiSchemas = {
  Program: programSchema,
  ExportRow: exportRowSchema,
  Freshness: freshnessSchema,
  Contractor: contractorSchema,
  City: citySchema,
  CityWithCount: cityWithCountSchema,
  CityList: cityListSchema,
  CityCounts: cityCountsSchema,
  ProgramList: programListSchema,
  ChangeEvent: changeEventSchema,
  ChangeFeed: changeFeedSchema,
  DatasetHealth: healthSchema,
  LinkHealthCounts: linkHealthCountsSchema,
  DatasetReadiness: readinessSchema,
  ApiError: apiErrorSchema,
  TrialScopeError: trialScopeErrorSchema,
  JsonSchemaDocument: jsonSchemaDocumentSchema,
  ReportArtifact: publishedReportArtifactSchema,
} as const;

/** A schema component's name. */
export type SchemaComponent = keyof typeof openApiSchemas;

/** A `$ref` to a schema component. */
export function schemaRef(name: SchemaComponent): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}
