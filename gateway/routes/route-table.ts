/**
 * The route table: every route of the gateway, once (STYLE 23). From it come the @koa/router registrations
 * (register-routes.ts), the fast path's matcher (gateway/fast-path/route-matcher.ts), the OpenAPI `paths`
 * (gateway/openapi/openapi-paths.ts) and the route lists of the tests. Each entry says how the route is
 * reached (access class and scope rule), how its success is cached (the runtime Cache-Control and the
 * OpenAPI headers both come from `caching`), which handler answers it, whether the fast path may answer it
 * first, and what it documents: its own statuses and error codes (the statuses
 * every route of an access class shares are added by the OpenAPI generator).
 *
 * What runs before a handler is written once: request id -> request log -> metrics -> snapshot pin -> error
 * renderer -> versioning headers -> request guards (gateway/app.ts) -> the route's access chain by its class
 * (gateway/pipeline/route-chain.ts). Handlers are plain functions from a RouteRequest to a RouteReply
 * (gateway/pipeline/route-exchange.ts); the Koa adapter (register-routes.ts) and the fast path
 * (gateway/fast-path/serve-fast-path.ts) run the same composed steps.
 *
 * A newcomer's three questions about a route, say `/api/changes`, have one answer each: its entry here
 * names the handler that answers it (`changeFeedHandler`, routes/change-routes.ts); what runs before it is
 * the order above, whose route part gateway/pipeline/route-chain.ts composes; the shape it returns is the
 * contract schema its `operation.ok.schema` names (`ChangeFeed`: build/contract/change-feed-schema.ts,
 * through gateway/openapi/openapi-schemas.ts), which the OpenAPI document publishes.
 *
 * Order matters only where templates overlap: a literal path comes before the template it would match
 * (`/api/programs/national` before `/api/programs/:city`), for the router and the fast path alike. The
 * order is also the order of the OpenAPI `paths`.
 */
import { REPORT_NAMES, type ReportName } from '../../build/contract/report-artifact-schema.ts';
import { PROGRAM_FILTER_PARAMETERS } from '../openapi/openapi-parameters.ts';
import { errorResponse } from '../openapi/openapi-responses.ts';
import {
  FILTER_ERROR, licensedNotFound, MISSING_DOCUMENT, OPENAPI_DOCUMENT_SHAPE, ownBadRequest, QUERY_BOUND, REPORT_UNAVAILABLE, SNAPSHOT_UNAVAILABLE,
} from '../openapi/operation-responses.ts';
import { CHANGE_FEED_SCOPE, changeFeedHandler } from './change-routes.ts';
import { cityCountsHandler, cityIndexHandler } from './city-routes.ts';
import { docsHandler } from './docs-route.ts';
import { openApiHandler } from './openapi-route.ts';
import { livenessHandler, probeStatusSchema, readinessProbeHandler } from './probe-routes.ts';
import {
  cityCollectionHandler, defaultCollectionHandler, nationalCollectionHandler, PROGRAM_SCOPES, recordHandler,
} from './program-routes.ts';
import {
  exportSchemaHandler, healthHandler, programSchemaHandler, readinessHandler, reportHandler, sampleHandler,
} from './public-routes.ts';
import type { RouteEntry, RouteTable } from './route-entry.ts';

const GET = ['GET'] as const;

const COLLECTION_NOTES = 'Filters combine with logical AND. The complete filtered array is returned (no paging); unknown filter values give a valid empty collection, except `special`, where records with no population restriction still match. `excludedBySafetyPolicy` counts matching records withheld as outside home repair or known-problem. An empty collection is a result, distinct from a failed request.';

const DOCS_DESCRIPTION = [
  'This OpenAPI description rendered by Redoc as one self-contained HTML page. Outside the JSON contract, like the probes: an HTML page for people, not a response for clients to parse.',
  'The page makes no request: Redoc\'s script and this document are inline, fonts are the system\'s, so it reads the same offline. Its `Content-Security-Policy` allows nothing to load and only its own two scripts to run, by hash (no `unsafe-eval`); styles need `\'unsafe-inline\'`, because Redoc writes its style elements and attributes at run time (styled-components). Built once per gateway process from the same document as `/openapi.json`, with a strong `ETag`.',
].join('\n\n');

/** Documentation of the report artifacts (spec 4.2), one route each. */
const REPORTS: Readonly<Record<ReportName, { operationId: string; summary: string; description: string }>> = {
  'fact-audit-latest': {
    operationId: 'getFactAuditLatest',
    summary: 'Latest strict fact-audit artifact',
    description: 'The latest completed strict fact audit: a versioned, frozen artifact with its own manifest (what was measured and how), a `summary` (`recordsAudited`, `factErrors`; from version 3, written by `hra audit publish`, also `errorRate`, `errorRateUpperBound` (Clopper-Pearson, two-sided 95%, which readiness compares with `maxFactErrorRate`), `recordsUnverifiable` and `fieldErrors`) and its records; the manifest of version 3 names the sampling seed and frame digest.',
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

function reportRoute(name: ReportName): RouteEntry {
  const report = REPORTS[name];
  return {
    methods: GET,
    path: `/api/dataset/reports/${name}`,
    access: 'public',
    caching: 'report',
    handler: reportHandler(name),
    fastPath: true,
    operation: {
      operationId: report.operationId,
      tag: 'reports',
      summary: report.summary,
      description: `${report.description} Every artifact has the form \`{artifact, version, completedAt, manifest, summary?, records}\`; \`manifest\` and the record members are frozen per artifact and described by the artifact itself.`,
      ok: { description: 'The frozen artifact.', schema: 'ReportArtifact' },
      responses: { '503': REPORT_UNAVAILABLE },
    },
  };
}

/** Every route the gateway serves. */
export const ROUTE_TABLE: RouteTable = [
  {
    methods: GET,
    path: '/api/sample',
    access: 'public',
    caching: 'cacheable',
    handler: sampleHandler,
    fastPath: true,
    operation: {
      operationId: 'getSample',
      tag: 'sample',
      summary: 'Keyless sample: one evaluation city',
      description: 'One evaluation-city collection in the program-list envelope (`sample: true`), under the same scope and quarantine rules as licensed routes. Query parameters are ignored.',
      ok: { description: 'The sample collection.', schema: 'ProgramList' },
      responses: { '503': MISSING_DOCUMENT },
    },
  },
  {
    methods: GET,
    path: '/api/dataset/health',
    access: 'public',
    caching: 'revalidate',
    handler: healthHandler,
    fastPath: true,
    operation: {
      operationId: 'getDatasetHealth',
      tag: 'dataset',
      summary: 'Dataset health',
      description: 'Row counts, link health, source verification and fact accuracy of the served revision, and the paid-licensing readiness gate. Row totals, distinct stored names and locally unique programs are separate measures. Not ETag-cached.',
      ok: { description: 'Dataset health.', schema: 'DatasetHealth' },
      responses: { '503': MISSING_DOCUMENT },
    },
  },
  {
    methods: GET,
    path: '/api/data/readiness',
    access: 'public',
    caching: 'revalidate',
    handler: readinessHandler,
    fastPath: true,
    operation: {
      operationId: 'getDataReadiness',
      tag: 'dataset',
      summary: 'Paid-licensing readiness gate',
      description: 'Evaluated per request. A red gate (`checkoutEnabled` false or code `DATASET_CHECKOUT_NOT_READY`) must stop procurement or delivery; `reasons` lists each red gate. Not ETag-cached.',
      ok: { description: 'The readiness gate.', schema: 'DatasetReadiness' },
      responses: { '503': SNAPSHOT_UNAVAILABLE },
    },
  },
  {
    methods: GET,
    path: '/api/dataset/schema',
    access: 'public',
    caching: 'cacheable',
    handler: programSchemaHandler,
    fastPath: true,
    operation: {
      operationId: 'getProgramSchema',
      tag: 'dataset',
      summary: 'JSON Schema of the program record',
      description: 'The standalone JSON Schema (2020-12) document of the Program record (component `Program` plus `$schema`, `$id`, `title`, `description`). A schema is not an offer, a delivery receipt or a source-rights approval.',
      ok: { description: 'The program record schema document.', schema: 'JsonSchemaDocument' },
      responses: { '503': MISSING_DOCUMENT },
    },
  },
  {
    methods: GET,
    path: '/api/dataset/export-schema',
    access: 'public',
    caching: 'cacheable',
    handler: exportSchemaHandler,
    fastPath: true,
    operation: {
      operationId: 'getExportSchema',
      tag: 'dataset',
      summary: 'JSON Schema of the flat-export row',
      description: 'The standalone JSON Schema (2020-12) document of a flat-export row: the Program record plus `city`. No bulk export endpoint exists and no operation returns a row, so the row is not a component of this description; the schema describes rows a licensee assembles under its agreement.',
      ok: { description: 'The export-row schema document.', schema: 'JsonSchemaDocument' },
      responses: { '503': MISSING_DOCUMENT },
    },
  },
  {
    methods: GET,
    path: '/openapi.json',
    access: 'public',
    caching: 'cacheable',
    handler: openApiHandler,
    fastPath: true,
    snapshotIndependent: true,
    operation: {
      operationId: 'getOpenApiDocument',
      tag: 'meta',
      summary: 'This OpenAPI 3.1 description',
      description: 'The OpenAPI 3.1 description of the public and licensed contract. Metered like every keyless route (a deliberate choice: the spec lists no error status for it).',
      ok: { description: 'The OpenAPI document.', schema: OPENAPI_DOCUMENT_SHAPE },
    },
  },
  {
    methods: GET,
    path: '/docs',
    access: 'public',
    caching: 'cacheable',
    handler: docsHandler,
    fastPath: true,
    snapshotIndependent: true,
    operation: {
      operationId: 'getDocsPage',
      tag: 'meta',
      summary: 'This description as a readable HTML reference',
      description: DOCS_DESCRIPTION,
      ok: { description: 'The HTML reference page.', schema: { type: 'string' }, mediaType: 'text/html', headers: ['Content-Security-Policy'] },
    },
  },
  {
    methods: GET,
    path: '/api/cities',
    access: 'licensed',
    scope: {},
    caching: 'licensed',
    handler: cityIndexHandler,
    fastPath: true,
    operation: {
      operationId: 'listCities',
      tag: 'cities',
      summary: 'Licensed live cities',
      description: 'The licensed live-city index. Trial keys see only their approved allowlist.',
      parameters: ['CityStatus'],
      unavailable: ['DATASET_UNAVAILABLE'],
      ok: { description: 'The city index.', schema: 'CityList' },
      responses: { '400': ownBadRequest(`\`status\` was repeated. ${QUERY_BOUND}`, ['INVALID_PARAMETER']) },
    },
  },
  {
    methods: GET,
    path: '/api/cities/counts',
    access: 'licensed',
    scope: {},
    caching: 'licensed',
    handler: cityCountsHandler,
    fastPath: true,
    operation: {
      operationId: 'getCityCounts',
      tag: 'cities',
      summary: 'Licensed live cities with program counts',
      description: 'Each licensed live city with its count of safe, actionable programs; `totalPrograms` is the aggregate. Trial keys see only approved cities.',
      parameters: ['CityStatus'],
      unavailable: ['DATASET_UNAVAILABLE'],
      ok: { description: 'Cities with counts.', schema: 'CityCounts' },
      responses: { '400': ownBadRequest(`\`status\` was repeated. ${QUERY_BOUND}`, ['INVALID_PARAMETER']) },
    },
  },
  {
    methods: GET,
    path: '/api/programs',
    access: 'licensed',
    scope: PROGRAM_SCOPES.defaultCollection,
    caching: 'licensed',
    handler: defaultCollectionHandler,
    fastPath: true,
    operation: {
      operationId: 'listDefaultCityPrograms',
      tag: 'programs',
      summary: 'Programs of the default licensed city (legacy)',
      description: `Same parameters and envelope as \`/api/programs/{city}\`, for a single default licensed city fixed by the service. ${COLLECTION_NOTES}`,
      parameters: PROGRAM_FILTER_PARAMETERS,
      scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN'],
      unavailable: ['DATASET_UNAVAILABLE'],
      ok: { description: 'The filtered collection.', schema: 'ProgramList' },
      responses: { '400': FILTER_ERROR, '404': licensedNotFound('The default licensed city is unavailable.') },
    },
  },
  {
    methods: GET,
    path: '/api/programs/national',
    access: 'licensed',
    scope: PROGRAM_SCOPES.nationalCollection,
    caching: 'licensed',
    handler: nationalCollectionHandler,
    fastPath: true,
    operation: {
      operationId: 'listNationalPrograms',
      tag: 'programs',
      summary: 'The four maintained federal records',
      description: `The four maintained city-neutral federal records (\`city\` is \`national\`), with the same parameters and envelope as \`/api/programs/{city}\`. Paid tiers only: a trial key is denied. ${COLLECTION_NOTES}`,
      parameters: PROGRAM_FILTER_PARAMETERS,
      scopeRefusals: ['API_TIER_FORBIDDEN'],
      unavailable: ['DATASET_UNAVAILABLE'],
      ok: { description: 'The filtered national collection.', schema: 'ProgramList' },
      responses: { '400': FILTER_ERROR },
    },
  },
  {
    methods: GET,
    path: '/api/programs/:city',
    access: 'licensed',
    scope: PROGRAM_SCOPES.cityCollection,
    caching: 'licensed',
    handler: cityCollectionHandler,
    fastPath: true,
    operation: {
      operationId: 'listCityPrograms',
      tag: 'programs',
      summary: 'Programs of one licensed live city',
      description: COLLECTION_NOTES,
      parameters: ['City', ...PROGRAM_FILTER_PARAMETERS],
      scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN'],
      unavailable: ['DATASET_UNAVAILABLE'],
      ok: { description: 'The filtered collection.', schema: 'ProgramList' },
      responses: { '400': FILTER_ERROR, '404': licensedNotFound('The city is not a licensed live city. The reason is not revealed.') },
    },
  },
  {
    methods: GET,
    path: '/api/programs/:city/:programId',
    access: 'licensed',
    scope: PROGRAM_SCOPES.record,
    caching: 'licensed',
    handler: recordHandler,
    fastPath: true,
    operation: {
      operationId: 'getProgram',
      tag: 'programs',
      summary: 'One program record',
      description: 'One Program record. The dataset revision is carried in the `X-Dataset-Revision` header only, not in the body. `city` may be `national` for the federal records (paid tiers only).',
      parameters: ['City', 'ProgramId'],
      scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN', 'API_TIER_FORBIDDEN'],
      unavailable: ['DATASET_UNAVAILABLE'],
      ok: { description: 'The program record.', schema: 'Program' },
      responses: {
        '404': licensedNotFound(
          'The record does not exist in the licensed live scope, or is withheld (quarantined or outside home repair). Both give the identical response, so the route is not an oracle for suppressed records.',
        ),
      },
    },
  },
  {
    methods: GET,
    path: '/api/changes',
    access: 'licensed',
    scope: CHANGE_FEED_SCOPE,
    caching: 'licensed',
    handler: changeFeedHandler,
    fastPath: true,
    operation: {
      operationId: 'listChanges',
      tag: 'changes',
      summary: 'Change feed (keyset-paginated pull)',
      description: [
        'Detected program changes, newest first. Pull only: there is no push delivery (no callbacks or webhooks).',
        'Pagination: while `hasMore` is true, send `nextCursor` as `cursor` with the same `since` and `city`. A page may hold no events yet have `hasMore` true (it advanced past withheld events); stop only when `hasMore` is false. The first page freezes `snapshotMaxId`; later inserts, backdated ones included, appear only to a new first-page request.',
        'Change rows carry no scope field: reconcile each `programId` with the scoped program endpoint before downstream use.',
        'During a rolling deploy a cursor may reach a gateway still serving an older revision, whose newest event is below the cursor\'s `snapshotMaxId`: it answers 503 `CHANGE_FEED_BEHIND_CURSOR` with `Retry-After`, never a page that would skip events. Retry the same request; a cursor from an older revision keeps working on a newer one.',
        'A cursor names the secret it was signed under. One that reaches a gateway not holding that secret (gateways behind one address that do not share it: a deployment fault) is a 503 `CURSOR_SECRET_MISMATCH` with `Retry-After`, not a 400: the cursor is sound and another gateway may accept it. Retry the same request; never restart the walk.',
      ].join('\n\n'),
      parameters: ['Since', 'Limit', 'ChangeCity', 'Cursor'],
      scopeRefusals: ['API_TRIAL_CITY_FORBIDDEN'],
      // The snapshot, change-feed storage included; a cursor from a newer revision; one under another gateway's secret.
      unavailable: ['DATASET_UNAVAILABLE', 'CHANGE_FEED_BEHIND_CURSOR', 'CURSOR_SECRET_MISMATCH'],
      ok: { description: 'One page of the change feed.', schema: 'ChangeFeed' },
      responses: {
        '400': ownBadRequest(
          `A parameter is missing or malformed, \`city\` is not a licensed live city, or a trial key named no city (that body is a TrialScopeError; a trial key's 400 comes before the key is accepted, without \`Vary\`). ${QUERY_BOUND}`,
          ['INVALID_PARAMETER', 'INVALID_DATE', 'INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_CITY_SLUG', 'UNKNOWN_CITY', 'API_TRIAL_CITY_REQUIRED'],
        ),
      },
    },
  },
  ...REPORT_NAMES.map(reportRoute),
  {
    methods: GET,
    path: '/healthz',
    access: 'probe',
    caching: 'revalidate',
    handler: livenessHandler,
    fastPath: true,
    snapshotIndependent: true,
    operation: {
      operationId: 'getLiveness',
      tag: 'operations',
      summary: 'Liveness probe',
      description: '200 `{"status":"alive"}` while the process serves HTTP; restart it when this fails.',
      ok: { description: 'The process is alive.', schema: probeStatusSchema },
    },
  },
  {
    methods: GET,
    path: '/readyz',
    access: 'probe',
    caching: 'revalidate',
    handler: readinessProbeHandler,
    fastPath: true,
    operation: {
      operationId: 'getReadiness',
      tag: 'operations',
      summary: 'Readiness probe',
      description: '200 `{"status":"ready","datasetRevision":...}` while the gateway takes traffic. From the moment SIGTERM or SIGINT starts a graceful shutdown it answers 503 `SHUTTING_DOWN`: stop routing new requests here; requests in flight still complete. Distinct from `/api/data/readiness`, the dataset\'s paid-licensing gate.',
      ok: { description: 'The gateway takes traffic; `datasetRevision` is the revision it serves.', schema: probeStatusSchema },
      responses: {
        '503': errorResponse('The gateway is draining before it exits (`SHUTTING_DOWN`), or its snapshot file stopped verifying or could not be read (`DATASET_UNAVAILABLE`, until a file that verifies is in place). Route new requests to another instance.', ['SHUTTING_DOWN', 'DATASET_UNAVAILABLE'], { retryAfter: true }),
      },
    },
  },
];
