/**
 * `components.schemas` of the OpenAPI description, derived from the contract's own `as const` objects,
 * never maintained beside them (STYLE 8). The contract embeds its parts by identity (a Program holds the
 * Freshness object itself); published, each embedded part becomes a `$ref` to its component, so every
 * shape is stated once and every component is used. The report artifact also drops its corpus `$id`.
 */
import { changeEventSchema, changeFeedSchema } from '../../build/contract/change-feed-schema.ts';
import { cityCountsSchema, cityListSchema, citySchema, cityWithCountSchema } from '../../build/contract/city-schema.ts';
import { apiErrorSchema, trialScopeErrorSchema } from '../../build/contract/error-schema.ts';
import { healthSchema, linkHealthCountsSchema } from '../../build/contract/health-schema.ts';
import { programListSchema } from '../../build/contract/program-list-schema.ts';
import { contractorSchema, freshnessSchema, programSchema } from '../../build/contract/program-schema.ts';
import { readinessSchema } from '../../build/contract/readiness-schema.ts';
import { reportArtifactSchema } from '../../build/contract/report-artifact-schema.ts';
import { jsonSchemaDocumentSchema } from './json-schema-document-schema.ts';

// The corpus `$id` ("corpus:report") names a build-time validator, not a published resource.
const { $id: _corpusId, ...reportArtifact } = reportArtifactSchema;

/** The report artifact as published: the frozen corpus shape without its build-time `$id`. */
export const publishedReportArtifactSchema = reportArtifact;

/**
 * Component name -> contract schema object. The flat-export row is absent: no operation returns one (its
 * schema is the document the export-schema route serves).
 */
export const contractSchemas = {
  Program: programSchema,
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
export type SchemaComponent = keyof typeof contractSchemas;

/** `components.schemas` as published: each contract object with the components it embeds as `$ref`s. */
export const openApiSchemas: Readonly<Record<SchemaComponent, unknown>> = referenceEmbeddedComponents(contractSchemas);

function referenceEmbeddedComponents(components: Readonly<Record<SchemaComponent, object>>): Record<SchemaComponent, unknown> {
  const names = new Map<unknown, SchemaComponent>(Object.entries(components).map(([name, schema]) => [schema, name as SchemaComponent]));
  // A subtree that embeds no component is kept as the contract's own object, not copied.
  const publish = (node: unknown, isRoot: boolean): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const name = names.get(node);
    if (!isRoot && name !== undefined) return schemaRef(name);
    const entries = Object.entries(node);
    const published = entries.map(([key, value]) => [key, publish(value, false)] as const);
    if (published.every(([, value], index) => value === entries[index]?.[1])) return node;
    return Array.isArray(node) ? published.map(([, value]) => value) : Object.fromEntries(published);
  };
  return Object.fromEntries(Object.entries(components).map(([name, schema]) => [name, publish(schema, true)])) as Record<SchemaComponent, unknown>;
}

/** A `$ref` to a schema component. */
export function schemaRef(name: SchemaComponent): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}
