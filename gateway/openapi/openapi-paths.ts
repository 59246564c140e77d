/** The `paths` of the OpenAPI description: every route of spec 4.2 and 4.3, with every status it can send. */
import { REPORT_NAMES, type ReportName } from '../../build/contract/report-artifact-schema.ts';
import type { ErrorCode } from '../http/api-error.ts';
import { MAX_QUERY_PARAMETERS } from '../http/parse-query.ts';
import { parameterRefs, PROGRAM_FILTER_PARAMETERS, type ParameterComponent } from './openapi-parameters.ts';
import { probePaths } from './openapi-probe-paths.ts';
import { errorResponse, okResponse, responseRef } from './openapi-responses.ts';

type Responses = Record<string, object>;

const OPENAPI_DOCUMENT_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' }, info: { type: 'object' }, paths: { type: 'object' } },
} as const;

/**
 * Statuses every operation shares: any other method is 405, an oversized or slow request 414, 431 or
 * 408, and an unexpected failure is 500.
 */
const SHARED = {
  '405': responseRef('MethodNotAllowed'),
  '408': responseRef('RequestTimeout'),
  '414': responseRef('UriTooLong'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('InternalError'),
} as const;

/**
 * A request Node cannot parse is a 400 before any operation is chosen. An operation with 400s of its own
 * declares them with `ownBadRequest`, which keeps MALFORMED_REQUEST among the codes of the shared status.
 */
const MALFORMED = { '400': responseRef('MalformedRequest') } as const;

/**
 * A licensed operation's own 400 (`codes`, sent after the key is accepted, so metered and varying on the
 * key), together with the HTTP server's 400 `MALFORMED_REQUEST`, which the same status carries.
 */
function ownBadRequest(summary: string, codes: readonly ErrorCode[]): object {
  return errorResponse(
    `${summary} Do not retry unchanged. A request that is not well-formed HTTP gets the same status with \`MALFORMED_REQUEST\`, before any operation is chosen (no rate-limit or \`Vary\` headers).`,
    [...codes, 'MALFORMED_REQUEST'],
    { metered: true, extraHeaders: ['Vary-Error'] },
  );
}

/** A licensed operation's 404: answered after the key is accepted, so metered and varying on the key. */
function licensedNotFound(summary: string): object {
  return errorResponse(summary, ['NOT_FOUND'], { metered: true, extraHeaders: ['Vary-Error'] });
}

interface OperationInput {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: readonly ParameterComponent[];
  responses: Responses;
}

function publicOperation(input: OperationInput): object {
  return {
    operationId: input.operationId,
    tags: [input.tag],
    summary: input.summary,
    description: `${input.description}\n\nKeyless; metered per client address under the public request limit.`,
    security: [],
    parameters: parameterRefs('RequestId', ...(input.parameters ?? [])),
    responses: { ...MALFORMED, ...input.responses, ...SHARED, '429': responseRef('RateLimited') },
  };
}

/** 403 codes every licensed route can send; routes add their scope codes. */
const KEY_REFUSALS: readonly ErrorCode[] = ['API_KEY_REVOKED', 'API_KEY_EXPIRED', 'API_TRIAL_POLICY_INVALID'];

interface LicensedInput extends OperationInput {
  /** 403 codes beyond the key refusals. */
  scopeRefusals?: readonly ErrorCode[];
  /** 503 codes beyond the authentication and rate-limit storage outages; sent after the key is accepted. */
  unavailable?: readonly ErrorCode[];
}

const STORAGE_OUTAGE_SUMMARY = 'A store the request depends on is unavailable. Retryable, and never equal to an empty dataset: licensed data is never served unvalidated.';

function licensedOperation(input: LicensedInput): object {
  return {
    operationId: input.operationId,
    tags: [input.tag],
    summary: input.summary,
    description: `${input.description}\n\nRequires \`X-Api-Key\`. Metered per key under its tier's minute and day windows; 400, 401 and 403 refusals before the key is accepted are metered per client address under the public limit, never against a key.`,
    parameters: parameterRefs('RequestId', ...(input.parameters ?? [])),
    responses: {
      ...MALFORMED,
      ...input.responses,
      '401': responseRef('Unauthorized'),
      '403': errorResponse(
        'The key is revoked, expired or has a malformed trial policy, or the request is outside its scope. The body is an ApiError, or a TrialScopeError for trial-scope refusals; `allowedCitySlugs` may list up to five approved slugs.',
        [...KEY_REFUSALS, ...(input.scopeRefusals ?? [])],
        { metered: true },
      ),
      ...SHARED,
      '429': responseRef('RateLimited'),
      '500': responseRef('LicensedInternalError'),
      // The storage outages are refused before metering; a route's own 503 comes after, metered and varying.
      '503': input.unavailable === undefined
        ? errorResponse(STORAGE_OUTAGE_SUMMARY, ['AUTH_STORAGE_UNAVAILABLE', 'RATE_LIMIT_STORAGE_UNAVAILABLE'], { retryAfter: true })
        : errorResponse(
          `${STORAGE_OUTAGE_SUMMARY} \`Retry-After\` accompanies the authentication and rate-limit storage outages; the rate-limit and \`Vary\` headers accompany the route's own.`,
          ['AUTH_STORAGE_UNAVAILABLE', 'RATE_LIMIT_STORAGE_UNAVAILABLE', ...input.unavailable],
          { retryAfter: true, metered: true, extraHeaders: ['Vary-Error'] },
        ),
    },
  };
}

/** The query bound of every route that reads parameters (gateway/http/parse-query.ts), checked after metering. */
const QUERY_BOUND = `A query of more than ${MAX_QUERY_PARAMETERS} parameters (repeats count) is a 400 \`INVALID_PARAMETER\`.`;
const filterError = ownBadRequest(`A filter parameter is malformed. ${QUERY_BOUND}`, ['INVALID_PARAMETER', 'INVALID_STATUS_FILTER']);
const missingDocument = errorResponse(
  'The served revision lacks this document (an incomplete snapshot). Retryable; never equal to an empty dataset.',
  ['DATASET_UNAVAILABLE'],
  { metered: true },
);
const collectionNotes = 'Filters combine with logical AND. The complete filtered array is returned (no paging); unknown filter values give a valid empty collection, except `special`, where records with no population restriction still match. `excludedBySafetyPolicy` counts matching records withheld as outside home repair or known-problem. An empty collection is a result, distinct from a failed request.';

const REPORTS: Readonly<Record<ReportName, { operationId: string; summary: string; description: string }>> = {
  'fact-audit-latest': {
    operationId: 'getFactAuditLatest',
    summary: 'Latest strict fact-audit artifact',
    description: 'The latest completed strict fact audit: a versioned, frozen artifact with its own manifest (what was measured and how), a `summary` (`recordsAudited`, `factErrors`) and its records.',
  },
  'fact-audit-legacy-2026-06-17': {
    operationId: 'getFactAuditLegacy20260617',
    summary: 'Superseded June 2026 fact-audit artifact',
    description: 'The superseded June 2026 fact audit, frozen as published.',
  },
  'state-home-improvement-2026': {
    operationId: 'getStateHomeImprovement2026',
    summary: 'Frozen 2026 state-report derivation artifact',
    description: 'The frozen 2026 state home-improvement report derivation.',
  },
};

function reportPath(name: ReportName): object {
  const report = REPORTS[name];
  return {
    get: publicOperation({
      operationId: report.operationId,
      tag: 'reports',
      summary: report.summary,
      description: `${report.description} Every artifact has the form \`{artifact, version, completedAt, manifest, summary?, records}\`; \`manifest\` and the record members are frozen per artifact and described by the artifact itself.`,
      responses: {
        '200': okResponse('The frozen artifact.', 'ReportArtifact', 'report'),
        '503': errorResponse('The artifact is not available in the served revision. Carries no `Retry-After` and no `X-Dataset-Revision`.', ['ARTIFACT_UNAVAILABLE'], { metered: true }),
      },
    }),
  };
}

/** The `paths` object. */
export function openApiPaths(): Record<string, object> {
  const cacheable = (description: string, schema: 'ProgramList' | 'JsonSchemaDocument', missing: boolean) => ({
    '200': okResponse(description, schema, 'cacheable'),
    '304': responseRef('NotModified'),
    ...(missing ? { '503': missingDocument } : {}),
  });
  const paths: Record<string, object> = {
    '/api/sample': {
      get: publicOperation({
        operationId: 'getSample',
        tag: 'sample',
        summary: 'Keyless sample: one evaluation city',
        description: 'One evaluation-city collection in the program-list envelope (`sample: true`), under the same scope and quarantine rules as licensed routes. Query parameters are ignored.',
        parameters: ['IfNoneMatch'],
        responses: cacheable('The sample collection.', 'ProgramList', true),
      }),
    },
    '/api/dataset/health': {
      get: publicOperation({
        operationId: 'getDatasetHealth',
        tag: 'dataset',
        summary: 'Dataset health',
        description: 'Row counts, link health, source verification and fact accuracy of the served revision, and the paid-licensing readiness gate. Row totals, distinct stored names and locally unique programs are separate measures. Not ETag-cached.',
        responses: { '200': okResponse('Dataset health.', 'DatasetHealth', 'revalidate'), '503': missingDocument },
      }),
    },
    '/api/data/readiness': {
      get: publicOperation({
        operationId: 'getDataReadiness',
        tag: 'dataset',
        summary: 'Paid-licensing readiness gate',
        description: 'Evaluated per request. A red gate (`checkoutEnabled` false or code `DATASET_CHECKOUT_NOT_READY`) must stop procurement or delivery; `reasons` lists each red gate. Not ETag-cached.',
        responses: { '200': okResponse('The readiness gate.', 'DatasetReadiness', 'revalidate') },
      }),
    },
    '/api/dataset/schema': {
      get: publicOperation({
        operationId: 'getProgramSchema',
        tag: 'dataset',
        summary: 'JSON Schema of the program record',
        description: 'The standalone JSON Schema (2020-12) document of the Program record (component `Program` plus `$schema`, `$id`, `title`, `description`). A schema is not an offer, a delivery receipt or a source-rights approval.',
        parameters: ['IfNoneMatch'],
        responses: cacheable('The program record schema document.', 'JsonSchemaDocument', true),
      }),
    },
    '/api/dataset/export-schema': {
      get: publicOperation({
        operationId: 'getExportSchema',
        tag: 'dataset',
        summary: 'JSON Schema of the flat-export row',
        description: 'The standalone JSON Schema (2020-12) document of a flat-export row: the Program record plus `city`. No bulk export endpoint exists and no operation returns a row, so the row is not a component of this description; the schema describes rows a licensee assembles under its agreement.',
        parameters: ['IfNoneMatch'],
        responses: cacheable('The export-row schema document.', 'JsonSchemaDocument', true),
      }),
    },
    '/openapi.json': {
      get: publicOperation({
        operationId: 'getOpenApiDocument',
        tag: 'meta',
        summary: 'This OpenAPI 3.1 description',
        description: 'The OpenAPI 3.1 description of the public and licensed contract. Metered like every keyless route (a deliberate choice: the spec lists no error status for it).',
        parameters: ['IfNoneMatch'],
        responses: {
          '200': okResponse('The OpenAPI document.', OPENAPI_DOCUMENT_SHAPE, 'cacheable'),
          '304': responseRef('NotModified'),
        },
      }),
    },
    '/api/cities': {
      get: licensedOperation({
        operationId: 'listCities',
        tag: 'cities',
        summary: 'Licensed live cities',
        description: 'The licensed live-city index. Trial keys see only their approved allowlist.',
        parameters: ['CityStatus'],
        responses: {
          '200': okResponse('The city index.', 'CityList', 'licensed'),
          '400': ownBadRequest(`\`status\` was repeated. ${QUERY_BOUND}`, ['INVALID_PARAMETER']),
        },
      }),
    },
    '/api/cities/counts': {
      get: licensedOperation({
        operationId: 'getCityCounts',
        tag: 'cities',
        summary: 'Licensed live cities with program counts',
        description: 'Each licensed live city with its count of safe, actionable programs; `totalPrograms` is the aggregate. Trial keys see only approved cities.',
        parameters: ['CityStatus'],
        responses: {
          '200': okResponse('Cities with counts.', 'CityCounts', 'licensed'),
          '400': ownBadRequest(`\`status\` was repeated. ${QUERY_BOUND}`, ['INVALID_PARAMETER']),
        },
      }),
    },
    '/api/programs': {
      get: licensedOperation({
        operationId: 'listDefaultCityPrograms',
        tag: 'programs',
        summary: 'Programs of the default licensed city (legacy)',
        description: `Same parameters and envelope as \`/api/programs/{city}\`, for a single default licensed city fixed by the service. ${collectionNotes}`,
        parameters: PROGRAM_FILTER_PARAMETERS,
        scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN'],
        responses: {
          '200': okResponse('The filtered collection.', 'ProgramList', 'licensed'),
          '400': filterError,
          '404': licensedNotFound('The default licensed city is unavailable.'),
        },
      }),
    },
    '/api/programs/national': {
      get: licensedOperation({
        operationId: 'listNationalPrograms',
        tag: 'programs',
        summary: 'The four maintained federal records',
        description: `The four maintained city-neutral federal records (\`city\` is \`national\`), with the same parameters and envelope as \`/api/programs/{city}\`. Paid tiers only: a trial key is denied. ${collectionNotes}`,
        parameters: PROGRAM_FILTER_PARAMETERS,
        scopeRefusals: ['API_TIER_FORBIDDEN'],
        responses: { '200': okResponse('The filtered national collection.', 'ProgramList', 'licensed'), '400': filterError },
      }),
    },
    '/api/programs/{city}': {
      get: licensedOperation({
        operationId: 'listCityPrograms',
        tag: 'programs',
        summary: 'Programs of one licensed live city',
        description: collectionNotes,
        parameters: ['City', ...PROGRAM_FILTER_PARAMETERS],
        scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN'],
        responses: {
          '200': okResponse('The filtered collection.', 'ProgramList', 'licensed'),
          '400': filterError,
          '404': licensedNotFound('The city is not a licensed live city. The reason is not revealed.'),
        },
      }),
    },
    '/api/programs/{city}/{programId}': {
      get: licensedOperation({
        operationId: 'getProgram',
        tag: 'programs',
        summary: 'One program record',
        description: 'One Program record. The dataset revision is carried in the `X-Dataset-Revision` header only, not in the body. `city` may be `national` for the federal records (paid tiers only).',
        parameters: ['City', 'ProgramId'],
        scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN', 'API_TIER_FORBIDDEN'],
        responses: {
          '200': okResponse('The program record.', 'Program', 'licensed'),
          '404': licensedNotFound(
            'The record does not exist in the licensed live scope, or is withheld (quarantined or outside home repair). Both give the identical response, so the route is not an oracle for suppressed records.',
          ),
        },
      }),
    },
    '/api/changes': {
      get: licensedOperation({
        operationId: 'listChanges',
        tag: 'changes',
        summary: 'Change feed (keyset-paginated pull)',
        description: [
          'Detected program changes, newest first. Pull only: there is no push delivery (no callbacks or webhooks).',
          'Pagination: while `hasMore` is true, send `nextCursor` as `cursor` with the same `since` and `city`. A page may hold no events yet have `hasMore` true (it advanced past withheld events); stop only when `hasMore` is false. The first page freezes `snapshotMaxId`; later inserts, backdated ones included, appear only to a new first-page request.',
          'Change rows carry no scope field: reconcile each `programId` with the scoped program endpoint before downstream use.',
        ].join('\n\n'),
        parameters: ['Since', 'Limit', 'ChangeCity', 'Cursor'],
        scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN'],
        unavailable: ['DATASET_UNAVAILABLE'], // change-feed storage
        responses: {
          '200': okResponse('One page of the change feed.', 'ChangeFeed', 'licensed'),
          '400': ownBadRequest(
            `A parameter is missing or malformed, \`city\` is not a licensed live city, or a trial key named no city (that body is a TrialScopeError; a trial key's 400 comes before the key is accepted, without \`Vary\`). ${QUERY_BOUND}`,
            ['INVALID_PARAMETER', 'INVALID_DATE', 'INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_CITY_SLUG', 'UNKNOWN_CITY', 'API_TRIAL_CITY_REQUIRED'],
          ),
        },
      }),
    },
  };
  for (const name of REPORT_NAMES) paths[`/api/dataset/reports/${name}`] = reportPath(name);
  Object.assign(paths, probePaths({ ...MALFORMED, ...SHARED }));
  return paths;
}
