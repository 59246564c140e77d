import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { API_VERSION, JSON_SCHEMA_DIALECT } from '../../../build/contract/api-version.ts';
import { changeEventSchema, changeFeedSchema } from '../../../build/contract/change-feed-schema.ts';
import { cityCountsSchema, cityListSchema, citySchema, cityWithCountSchema } from '../../../build/contract/city-schema.ts';
import { apiErrorSchema, trialScopeErrorSchema } from '../../../build/contract/error-schema.ts';
import { healthSchema, linkHealthCountsSchema } from '../../../build/contract/health-schema.ts';
import { programListSchema } from '../../../build/contract/program-list-schema.ts';
import {
  contractorSchema, exportRowSchemaDocument, freshnessSchema, programSchema, programSchemaDocument,
} from '../../../build/contract/program-schema.ts';
import { readinessSchema } from '../../../build/contract/readiness-schema.ts';
import { CHANGE_TYPES } from '../../../build/contract/vocab-enums.ts';
import { reportArtifactSchema } from '../../../build/contract/report-artifact-schema.ts';
import { ERROR_CODES } from '../../../gateway/http/api-error.ts';
import { DEFAULT_LIMITS, LIMIT_TIERS } from '../../../gateway/limits/limit-table.ts';
import { buildOpenApiDocument } from '../../../gateway/openapi/build-openapi-document.ts';
import { jsonSchemaDocumentSchema } from '../../../gateway/openapi/json-schema-document-schema.ts';
import { collectErrorCodes, operationOf, resolveRef, responseCodes, type OpenApiDocument } from './openapi-walk.ts';

const doc = buildOpenApiDocument() as OpenApiDocument;

// Every route of spec 4.2 and 4.3 with every status this contract documents for it.
const PUBLIC_ERRORS = ['400', '405', '408', '414', '429', '431', '500'];
const LICENSED_ERRORS = ['400', '401', '403', '405', '408', '414', '429', '431', '500', '503'];
const EXPECTED_STATUSES: ReadonlyArray<[string, readonly string[]]> = [
  ['/api/sample', ['200', '304', '503', ...PUBLIC_ERRORS]],
  ['/api/dataset/health', ['200', '503', ...PUBLIC_ERRORS]],
  ['/api/data/readiness', ['200', '503', ...PUBLIC_ERRORS]],
  ['/api/dataset/schema', ['200', '304', '503', ...PUBLIC_ERRORS]],
  ['/api/dataset/export-schema', ['200', '304', '503', ...PUBLIC_ERRORS]],
  ['/openapi.json', ['200', '304', ...PUBLIC_ERRORS]],
  // The HTML reference: outside the JSON contract, keyless and metered like the routes of 4.2.
  ['/docs', ['200', '304', ...PUBLIC_ERRORS]],
  ['/api/dataset/reports/fact-audit-latest', ['200', '503', ...PUBLIC_ERRORS]],
  ['/api/dataset/reports/fact-audit-legacy-2026-06-17', ['200', '503', ...PUBLIC_ERRORS]],
  ['/api/dataset/reports/state-home-improvement-2026', ['200', '503', ...PUBLIC_ERRORS]],
  ['/api/cities', ['200', ...LICENSED_ERRORS]],
  ['/api/cities/counts', ['200', ...LICENSED_ERRORS]],
  ['/api/programs', ['200', '404', ...LICENSED_ERRORS]],
  ['/api/programs/{city}', ['200', '404', ...LICENSED_ERRORS]],
  ['/api/programs/{city}/{programId}', ['200', '404', ...LICENSED_ERRORS]],
  ['/api/programs/national', ['200', ...LICENSED_ERRORS]],
  ['/api/changes', ['200', ...LICENSED_ERRORS]],
  // Operational probes: keyless like the public routes, but never metered (no 429).
  ['/healthz', ['200', ...PUBLIC_ERRORS.filter((status) => status !== '429')]],
  ['/readyz', ['200', '503', ...PUBLIC_ERRORS.filter((status) => status !== '429')]],
];
// The spec's allowlist (4.4), and the HTML reference outside the JSON contract.
const ETAG_ROUTES = ['/api/sample', '/api/dataset/schema', '/api/dataset/export-schema', '/openapi.json', '/docs'];

describe('buildOpenApiDocument', () => {
  it('is OpenAPI 3.1 with the contract version and the 2020-12 dialect', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, API_VERSION);
    assert.equal(doc.jsonSchemaDialect, JSON_SCHEMA_DIALECT);
    assert.deepEqual(doc.security, [{ ApiKeyAuth: [] }]);
    assert.deepEqual(doc.components.securitySchemes.ApiKeyAuth, {
      type: 'apiKey', in: 'header', name: 'X-Api-Key', description: doc.components.securitySchemes.ApiKeyAuth?.description,
    });
  });

  it('publishes the contract schema objects, each part another component as a $ref to it (STYLE 8)', () => {
    const expected: Record<string, unknown> = {
      Program: programSchema, Freshness: freshnessSchema, Contractor: contractorSchema,
      City: citySchema, CityWithCount: cityWithCountSchema, CityList: cityListSchema, CityCounts: cityCountsSchema,
      ProgramList: programListSchema, ChangeEvent: changeEventSchema, ChangeFeed: changeFeedSchema,
      DatasetHealth: healthSchema, LinkHealthCounts: linkHealthCountsSchema, DatasetReadiness: readinessSchema,
      ApiError: apiErrorSchema, TrialScopeError: trialScopeErrorSchema, JsonSchemaDocument: jsonSchemaDocumentSchema,
    };
    assert.deepEqual(Object.keys(doc.components.schemas).sort(), [...Object.keys(expected), 'ReportArtifact'].sort());
    // Expanding the $refs gives back the contract object exactly: nothing is restated beside it.
    const inline = (node: unknown): unknown => {
      if (node === null || typeof node !== 'object') return node;
      if ('$ref' in node) return inline(resolveRef(doc, node));
      return Array.isArray(node) ? node.map(inline) : Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value)]));
    };
    for (const [name, schema] of Object.entries(expected)) assert.deepEqual(inline(doc.components.schemas[name]), schema, name);
    // A component that embeds none is the contract's own object.
    for (const name of ['Freshness', 'City', 'ChangeEvent', 'ApiError', 'DatasetReadiness']) assert.equal(doc.components.schemas[name], expected[name], name);
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const program = doc.components.schemas.Program as { properties: Record<string, unknown> };
    assert.deepEqual([program.properties.freshness, program.properties.contractor], [ref('Freshness'), ref('Contractor')]);
    assert.deepEqual((doc.components.schemas.CityList as { properties: { cities: unknown } }).properties.cities, { type: 'array', items: ref('City') });
    assert.deepEqual((doc.components.schemas.DatasetHealth as { properties: { linkHealth: unknown } }).properties.linkHealth, ref('LinkHealthCounts'));
  });

  it('publishes the report artifact shape without its corpus $id', () => {
    const published = doc.components.schemas.ReportArtifact as Record<string, unknown>;
    assert.equal('$id' in published, false);
    assert.equal(published.properties, reportArtifactSchema.properties);
    assert.equal(published.required, reportArtifactSchema.required);
  });

  it('puts no $id in any component schema', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas)) assert.equal('$id' in (schema as object), false, name);
  });

  for (const [path, statuses] of EXPECTED_STATUSES) {
    it(`documents GET ${path} with statuses ${statuses.join(', ')}`, () => {
      const operation = operationOf(doc, path);
      assert.deepEqual(Object.keys(operation.responses).sort(), [...statuses].sort());
      assert.match(operation.operationId, /^[a-z][A-Za-z0-9]+$/);
      assert.ok(operation.summary && operation.description);
    });
  }

  it('documents no path beyond the spec', () => {
    assert.deepEqual(Object.keys(doc.paths).sort(), EXPECTED_STATUSES.map(([path]) => path).sort());
    for (const item of Object.values(doc.paths)) assert.deepEqual(Object.keys(item), ['get']);
  });

  it('marks the keyless routes as needing no key and leaves licensed ones under ApiKeyAuth', () => {
    for (const [path] of EXPECTED_STATUSES) {
      const operation = operationOf(doc, path);
      const licensed = '401' in operation.responses;
      assert.deepEqual(operation.security, licensed ? undefined : [], path);
    }
  });

  it('offers If-None-Match and 304 exactly on the ETag allowlist', () => {
    for (const [path] of EXPECTED_STATUSES) {
      const operation = operationOf(doc, path);
      const refs = (operation.parameters ?? []).map((parameter) => parameter.$ref);
      assert.equal(refs.includes('#/components/parameters/IfNoneMatch'), ETAG_ROUTES.includes(path), path);
      assert.equal('304' in operation.responses, ETAG_ROUTES.includes(path), path);
      const ok = resolveRef(doc, operation.responses['200']) as { headers: Record<string, unknown> };
      assert.equal('ETag' in ok.headers, ETAG_ROUTES.includes(path), path);
    }
  });

  it('says an ETag revalidates only the coding the request selects, as the gateway answers (compressed-responses.test.ts)', () => {
    const description = (doc.components as unknown as { headers: Record<string, { description: string }> }).headers.ETag?.description ?? '';
    assert.match(description, /revalidates only the representation the request selects/);
    assert.match(description, /A tag of another coding does not match/);
    assert.doesNotMatch(description, /every coding/);
  });

  it('gives every success X-Dataset-Revision and every error none, with X-Request-ID on both', () => {
    for (const [path, statuses] of EXPECTED_STATUSES) {
      for (const status of statuses) {
        const response = resolveRef(doc, operationOf(doc, path).responses[status]) as { headers: Record<string, unknown> };
        assert.equal('X-Dataset-Revision' in response.headers, Number(status) < 400, `${path} ${status}`);
        assert.ok('X-Request-ID' in response.headers && 'X-API-Version' in response.headers, `${path} ${status}`);
        // Every 503 may carry it: each route's own 503 shares its status with DATASET_UNAVAILABLE, which does.
        assert.equal('Retry-After' in response.headers, status === '429' || status === '503', `${path} ${status}`);
      }
    }
  });

  it('documents every error code the gateway sends, each under its operations\' statuses', () => {
    const documented = collectErrorCodes(doc);
    assert.deepEqual([...documented.keys()].sort(), [...ERROR_CODES].sort());
    assert.deepEqual(documented.get('API_TRIAL_CITY_REQUIRED'), new Set(['400']));
    assert.deepEqual(documented.get('METHOD_NOT_ALLOWED'), new Set(['405']));
    for (const code of ERROR_CODES) assert.ok(doc.info.description.includes(`\`${code}\``), `info.description lists ${code}`);
  });

  it('keeps MALFORMED_REQUEST among the 400 codes of every operation, its own 400s included', () => {
    for (const [path] of EXPECTED_STATUSES) {
      assert.ok(responseCodes(doc, operationOf(doc, path).responses['400']).includes('MALFORMED_REQUEST'), path);
    }
  });

  it('documents the change-feed defaults, event types, and the public request limit', () => {
    const changes = operationOf(doc, '/api/changes');
    const parameters = (changes.parameters ?? []).map((parameter) => resolveRef(doc, parameter) as { name: string; required?: boolean; schema: Record<string, unknown> });
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
    assert.equal(byName.get('since')?.required, true);
    assert.deepEqual(byName.get('limit')?.schema, { type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    for (const type of CHANGE_TYPES) assert.ok(doc.info.description.includes(`\`${type}\``), type);
    assert.ok(doc.info.description.includes(`${DEFAULT_LIMITS.public.perMinute} requests per minute`));
    assert.match(doc.info.description, /not eligibility/);
    assert.match(doc.info.description, /No operation is deprecated today/);
    assert.match(doc.info.description, /no push delivery/i);
  });

  it('writes each tier\'s day limit grouped as toLocaleString(\'en-US\') writes it (the document no longer asks ICU)', () => {
    for (const tier of LIMIT_TIERS) {
      const rule = DEFAULT_LIMITS.tiers[tier];
      assert.ok(rule.perDay !== null && rule.perDay >= 1000, `${tier}: a day limit with a thousands separator to check`);
      assert.ok(doc.info.description.includes(`| ${tier} | ${rule.perMinute} | ${rule.perDay.toLocaleString('en-US')} |`), tier);
    }
  });

  it('types the status filter as its enum on every program collection', () => {
    for (const path of ['/api/programs', '/api/programs/{city}', '/api/programs/national']) {
      const refs = (operationOf(doc, path).parameters ?? []).map((parameter) => parameter.$ref);
      assert.ok(refs.includes('#/components/parameters/StatusFilter'), path);
    }
    assert.deepEqual(doc.components.parameters.StatusFilter?.schema, { enum: ['available', 'waitlist', 'closed', 'unknown'] });
  });

  it('resolves every $ref it contains', () => {
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref') assert.notEqual(resolveRef(doc, { $ref: value as string }), undefined, String(value));
          else walk(value);
        }
      }
    };
    walk(doc);
  });

  it('describes both served JSON Schema documents with JsonSchemaDocument', () => {
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const validate = addFormats(new Ajv2020({ strict: false })).compile(jsonSchemaDocumentSchema);
    for (const document of [programSchemaDocument, exportRowSchemaDocument]) {
      assert.ok(validate(document), JSON.stringify(validate.errors));
    }
    assert.equal(validate({ ...programSchemaDocument, type: 'array' }), false);
  });

  it('is deterministic', () => {
    assert.equal(JSON.stringify(buildOpenApiDocument()), JSON.stringify(doc));
  });
});
