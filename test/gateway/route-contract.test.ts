/**
 * The envelope contract, frozen (STYLE 10): every route with every kind of key, checking status, `code`,
 * body schema and the header rules of spec 4.1, 4.4, 7 and 9 on each response; and every route with every
 * status it can be brought to answer here, each response held against the OpenAPI document (status, `code`,
 * every header sent declared for that status, every declared header sent by some response).
 */
import * as assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { copyFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../build/contract/api-version.ts';
import { SERVER_LIMITS } from '../../gateway/http/harden-server.ts';
import { MAX_URL_LENGTH } from '../../gateway/http/request-guards.ts';
import { buildOpenApiDocument } from '../../gateway/openapi/build-openapi-document.ts';
import { MIN_COMPRESSED_BODY_BYTES } from '../../gateway/encoding/encoded-bodies.ts';
import { assertMatchesSchema, type ContractSchemaName } from '../support/contract-validators.ts';
import { buildTestSnapshot, GENEROUS_LIMITS, startTestGateway, type TestGateway, type TestKeys } from '../support/start-test-gateway.ts';
import { checksumFileOf } from '../../build/snapshot/snapshot-checksum.ts';
import { segmentsFileOf } from '../../build/snapshot/snapshot-segments.ts';
import { rawRequest } from './hostile-input/hostile-support.ts';
import type { OpenApiDocument } from './openapi/openapi-walk.ts';
import { liveResponse, ResponseDeclarations, type LiveResponse } from './openapi/response-declarations.ts';
import { accessOf, examplePaths } from '../support/route-examples.ts';
import type { ApiErrorBody } from '../../build/contract/error-schema.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const doc = buildOpenApiDocument() as OpenApiDocument;
const declarations = new ResponseDeclarations(doc);

type KeyKind = keyof TestKeys | 'none' | 'bogus';

interface Case {
  path: string;
  key: KeyKind;
  status: number;
  schema: ContractSchemaName;
  code?: string;
  method?: string;
}

const LICENSED_ROUTES = examplePaths('licensed', { withRequiredQuery: true });

const cases: Case[] = [
  { path: '/api/sample', key: 'none', status: 200, schema: 'programList' },
  { path: '/api/dataset/health', key: 'none', status: 200, schema: 'health' },
  { path: '/api/data/readiness', key: 'none', status: 200, schema: 'readiness' },
  { path: '/api/dataset/schema', key: 'none', status: 200, schema: 'jsonSchemaDocument' },
  { path: '/api/dataset/export-schema', key: 'none', status: 200, schema: 'jsonSchemaDocument' },
  { path: '/api/dataset/reports/fact-audit-legacy-2026-06-17', key: 'none', status: 503, schema: 'apiError', code: 'ARTIFACT_UNAVAILABLE' },
  { path: '/api/cities', key: 'commercial', status: 200, schema: 'cityList' },
  { path: '/api/cities', key: 'trial', status: 200, schema: 'cityList' },
  { path: '/api/cities/counts', key: 'nonprofit', status: 200, schema: 'cityCounts' },
  { path: '/api/cities/counts', key: 'trial', status: 200, schema: 'cityCounts' },
  { path: '/api/programs', key: 'commercial', status: 200, schema: 'programList' },
  { path: '/api/programs/alpha', key: 'trial', status: 200, schema: 'programList' },
  { path: '/api/programs/alpha?status=available&income=low', key: 'commercial', status: 200, schema: 'programList' },
  { path: '/api/programs/gamma', key: 'trial', status: 403, schema: 'trialScopeError', code: 'API_TRIAL_CITY_FORBIDDEN' },
  { path: '/api/programs/delta', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  { path: '/api/programs/nowhere', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  { path: '/api/programs/alpha?status=open', key: 'commercial', status: 400, schema: 'apiError', code: 'INVALID_STATUS_FILTER' },
  { path: '/api/programs/alpha?type=a&type=b', key: 'commercial', status: 400, schema: 'apiError', code: 'INVALID_PARAMETER' },
  { path: '/api/programs/national', key: 'commercial', status: 200, schema: 'programList' },
  { path: '/api/programs/national', key: 'trial', status: 403, schema: 'apiError', code: 'API_TIER_FORBIDDEN' },
  { path: '/api/programs/alpha/a-roof', key: 'nonprofit', status: 200, schema: 'program' },
  { path: '/api/programs/alpha/a-quar', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  { path: '/api/programs/alpha/a-bills', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  { path: '/api/programs/alpha/missing', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  { path: '/api/programs/national/usda-504', key: 'commercial', status: 200, schema: 'program' },
  { path: '/api/programs/national/usda-504', key: 'trial', status: 403, schema: 'apiError', code: 'API_TIER_FORBIDDEN' },
  { path: '/api/changes?since=2026-01-01', key: 'commercial', status: 200, schema: 'changeFeed' },
  { path: '/api/changes?since=2026-01-01&city=alpha', key: 'trial', status: 200, schema: 'changeFeed' },
  { path: '/api/changes?since=2026-01-01', key: 'trial', status: 400, schema: 'trialScopeError', code: 'API_TRIAL_CITY_REQUIRED' },
  { path: '/api/changes?since=2026-01-01&city=gamma', key: 'trial', status: 403, schema: 'trialScopeError', code: 'API_TRIAL_CITY_FORBIDDEN' },
  { path: '/api/changes', key: 'commercial', status: 400, schema: 'apiError', code: 'INVALID_DATE' },
  { path: '/api/changes?since=2026-01-01&city=delta', key: 'commercial', status: 400, schema: 'apiError', code: 'UNKNOWN_CITY' },
  { path: '/api/changes?since=2026-01-01&city=Beta', key: 'trial', status: 400, schema: 'apiError', code: 'INVALID_CITY_SLUG' },
  { path: '/api/cities?status=live&status=paused', key: 'commercial', status: 400, schema: 'apiError', code: 'INVALID_PARAMETER' },
  { path: '/api/cities/counts?status=live&status=paused', key: 'nonprofit', status: 400, schema: 'apiError', code: 'INVALID_PARAMETER' },
  { path: '/api/programs?status=bogus', key: 'commercial', status: 400, schema: 'apiError', code: 'INVALID_STATUS_FILTER' },
  { path: '/api/programs/national?status=bogus', key: 'commercial', status: 400, schema: 'apiError', code: 'INVALID_STATUS_FILTER' },
  { path: '/api/cities', key: 'commercial', status: 405, schema: 'apiError', code: 'METHOD_NOT_ALLOWED', method: 'POST' },
  { path: '/no/such/route', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  ...LICENSED_ROUTES.flatMap((path): Case[] => [
    { path, key: 'none', status: 401, schema: 'apiError', code: 'API_KEY_REQUIRED' },
    { path, key: 'bogus', status: 401, schema: 'apiError', code: 'INVALID_API_KEY' },
    { path, key: 'revoked', status: 403, schema: 'apiError', code: 'API_KEY_REVOKED' },
    { path, key: 'expired', status: 403, schema: 'apiError', code: 'API_KEY_EXPIRED' },
  ]),
];

const isLicensed = (path: string) => accessOf(path) === 'licensed';

/** One concrete path per documented route; its own parameters do not matter to the statuses asked of it here. */
const EXAMPLE_PATHS = Object.keys(doc.paths).map((template) => template.replace('{city}', 'alpha').replace('{programId}', 'a-roof'));
const LICENSED_EXAMPLES = EXAMPLE_PATHS.filter(isLicensed);
const METERED_PUBLIC_EXAMPLES = EXAMPLE_PATHS.filter((path) => accessOf(path) === 'public');

describe('route contract', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(async () => {
    await gateway.close();
  });

  for (const testCase of cases) {
    it(`${testCase.method ?? 'GET'} ${testCase.path} with ${testCase.key} key -> ${testCase.status}${testCase.code ? ` ${testCase.code}` : ''}`, async () => {
      const key = testCase.key === 'none' ? undefined : testCase.key === 'bogus' ? 'hra_c_not-a-real-key' : gateway.keys[testCase.key];
      const response = await gateway.get(testCase.path, { key, method: testCase.method, headers: { 'X-Request-ID': 'contract-test-0001' } });
      const text = await response.text();
      assert.equal(response.status, testCase.status, text);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = JSON.parse(text) as Record<string, unknown>;
      assertMatchesSchema(testCase.schema, body, testCase.path);
      declarations.check(testCase.path, liveResponse(response, body), testCase.path);
      if (testCase.code) assert.equal(body.code, testCase.code);

      assert.equal(response.headers.get('x-api-version'), API_VERSION);
      assert.equal(response.headers.get('x-request-id'), 'contract-test-0001');
      const revision = response.headers.get('x-dataset-revision');
      if (testCase.status < 400) {
        assert.match(revision ?? '', /^gm1-[a-f0-9]{64}$/);
        if (typeof body.datasetRevision === 'string') assert.equal(body.datasetRevision, revision);
      } else {
        assert.equal(revision, null, 'errors omit X-Dataset-Revision');
        assert.equal(body.datasetRevision, undefined);
      }
      if ([400, 401, 403, 404].includes(testCase.status) && testCase.status !== 405) {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.match(response.headers.get(name) ?? '', /^\d+$/, name);
      }
      if (isLicensed(testCase.path) && testCase.status === 200) {
        assert.equal(response.headers.get('cache-control'), 'private, no-store');
        assert.match(response.headers.get('vary') ?? '', /X-Api-Key/i);
        assert.equal(response.headers.get('etag'), null, 'licensed responses carry no ETag');
      }
      if (testCase.status === 405) assert.equal(response.headers.get('allow'), 'GET, HEAD');
    });
  }

  // Computed per request (the readiness gate evaluated now): never compressed (gateway/encoding/compresses-success.ts).
  const PER_REQUEST_BODIES = ['/api/dataset/health', '/api/data/readiness'];
  for (const coding of ['br', 'gzip']) {
    it(`every documented success in ${coding}, once its compressed form is stored, sends what the document declares`, async () => {
      for (const path of [...LICENSED_EXAMPLES, ...METERED_PUBLIC_EXAMPLES]) {
        const target = path.replace(/^\/api\/changes$/, '/api/changes?since=2026-01-01');
        const options = { key: isLicensed(path) ? gateway.keys.commercial : undefined, headers: { 'Accept-Encoding': coding } };
        const first = await gateway.get(target, options);
        const identity = Buffer.from(await first.arrayBuffer());
        // A report artifact the test revision lacks: its 503 is checked above.
        if (first.status === 503) continue;
        await gateway.gateway.encodings.settled();
        const response = await gateway.get(target, options);
        const decoded = Buffer.from(await response.arrayBuffer());
        assert.equal(response.status, 200, target);
        declarations.check(target, liveResponse(response), `${coding} ${target}`);
        if (PER_REQUEST_BODIES.includes(path)) {
          assert.equal(response.headers.get('content-encoding'), null, target);
          assert.doesNotMatch(response.headers.get('vary') ?? '', /Accept-Encoding/, target);
          continue;
        }
        // fetch decodes what it is sent: the same bytes, whichever coding carried them.
        assert.deepEqual(decoded, identity, target);
        const large = Number(first.headers.get('content-length')) >= MIN_COMPRESSED_BODY_BYTES || identity.length >= MIN_COMPRESSED_BODY_BYTES;
        assert.equal(response.headers.get('content-encoding'), large ? coding : null, target);
        assert.equal(/Accept-Encoding/.test(response.headers.get('vary') ?? ''), large, target);
      }
    });
  }

  it('the detail 404 is identical for missing, quarantined and adjacent records (no oracle)', async () => {
    const bodies = await Promise.all(['a-quar', 'a-bills', 'missing'].map(async (id) => (await gateway.get(`/api/programs/alpha/${id}`, { key: gateway.keys.commercial })).text()));
    assert.equal(new Set(bodies).size, 1);
  });

  it('generates a request id when the caller sends an unsafe one', async () => {
    for (const offered of ['short', 'has space in it!', '-leading-dash-id', 'x'.repeat(81)]) {
      const response = await gateway.get('/api/sample', { headers: { 'X-Request-ID': offered } });
      const id = response.headers.get('x-request-id') ?? '';
      assert.notEqual(id, offered);
      assert.match(id, /^[A-Za-z0-9][A-Za-z0-9._:-]{7,79}$/);
    }
  });

  it('trial 403 bodies list the approved cities', async () => {
    const response = await gateway.get('/api/programs/gamma', { key: gateway.keys.trial });
    const body = (await response.json()) as { allowedCitySlugs: string[] };
    assert.deepEqual([...body.allowedCitySlugs].sort(), ['alpha', 'beta']);
  });

  for (const path of EXAMPLE_PATHS) {
    it(`${path}: the refusals answered before any operation is chosen (400, 405, 414, 431)`, async () => {
      await expectDeclared(gateway, path, { method: 'POST', status: 405, code: 'METHOD_NOT_ALLOWED' });
      await expectDeclared(gateway, `${path}${path.includes('?') ? '&' : '?'}pad=${'x'.repeat(MAX_URL_LENGTH)}`, { status: 414, code: 'URI_TOO_LONG' });
      // Metered per client address: its rate-limit headers are declared and sent (spec 7).
      const undecodable = await expectDeclared(gateway, `${path}${path.includes('?') ? '&' : '?'}probe=%FF`, { status: 400, code: 'MALFORMED_URL' });
      assert.match(undecodable.headers.get('x-ratelimit-limit') ?? '', /^\d+$/, `${path} MALFORMED_URL`);
      const malformed = await askRaw(gateway.url, path, { 'Content-Length': '5', 'Transfer-Encoding': 'chunked' });
      assert.deepEqual([malformed.status, malformed.code], [400, 'MALFORMED_REQUEST']);
      declarations.check(path, malformed, `${path} malformed`);
      const oversized = await askRaw(gateway.url, path, { 'X-Pad': 'a'.repeat(SERVER_LIMITS.maxHeaderSize) });
      assert.deepEqual([oversized.status, oversized.code], [431, 'HEADERS_TOO_LARGE']);
      declarations.check(path, oversized, `${path} oversized headers`);
    });
  }

  it('the keyless documents, reports and probes: 200, 304 on the ETag routes, 503 for an artifact the revision lacks', async () => {
    for (const path of ['/openapi.json', '/docs', '/api/sample', '/api/dataset/schema', '/api/dataset/export-schema']) {
      // One coding for both: a tag revalidates only the coding the request selects.
      const etag = (await expectDeclared(gateway, path, { status: 200, headers: { 'Accept-Encoding': 'identity' } })).headers.get('etag') ?? '';
      await expectDeclared(gateway, path, { status: 304, headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } });
    }
    for (const path of ['/api/dataset/health', '/api/data/readiness', '/api/dataset/reports/fact-audit-latest', '/healthz', '/readyz']) {
      await expectDeclared(gateway, path, { status: 200 });
    }
    await expectDeclared(gateway, '/api/dataset/reports/state-home-improvement-2026', { status: 503, code: 'ARTIFACT_UNAVAILABLE' });
  });
});

/** A request node:http sends as told (fetch refuses some of these), read back as a LiveResponse. */
async function askRaw(url: string, path: string, headers: Record<string, string>): Promise<LiveResponse> {
  const response = await rawRequest(url, new Agent({ keepAlive: false }), { path, headers });
  const names = Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)] as const);
  const body = JSON.parse(response.body) as ApiErrorBody;
  return { status: response.status, headers: new Map(names), code: body.code };
}

/** Fetches `path`, checks the expected status and code, and holds the response against the document. */
async function expectDeclared(gateway: TestGateway, path: string, expected: { status: number; code?: string; key?: string; method?: string; headers?: Record<string, string> }): Promise<Response> {
  const response = await gateway.get(path, { key: expected.key, method: expected.method, headers: expected.headers });
  const text = await response.text();
  const where = `${expected.method ?? 'GET'} ${path.slice(0, 120)}`;
  assert.equal(response.status, expected.status, `${where}: ${text.slice(0, 300)}`);
  // Only an error's `code` is an error code (a readiness report has a `code` of its own).
  const body = response.status < 400 || text === '' ? undefined : (JSON.parse(text) as ApiErrorBody);
  assert.equal(body?.code, expected.code, where);
  assert.ok(declarations.check(path, liveResponse(response, body), where), `${where} is not a documented path`);
  return response;
}

describe('route contract: exhausted limits and a lost key store are declared', () => {
  let gateway: TestGateway;
  // Frozen inside one minute, so the exhausted windows cannot reopen mid-test.
  const frozen = Date.now();
  before(async () => {
    gateway = await startTestGateway({
      now: () => frozen,
      limits: { tiers: { nonprofit: { perMinute: 1 } }, public: { perMinute: 1 } },
    });
  });
  after(async () => {
    await gateway.close();
  });

  it('429 on every metered route once its window is spent', async () => {
    await expectDeclared(gateway, '/api/sample', { status: 200 });
    for (const path of METERED_PUBLIC_EXAMPLES) await expectDeclared(gateway, path, { status: 429, code: 'RATE_LIMITED' });
    await expectDeclared(gateway, '/api/cities', { status: 200, key: gateway.keys.nonprofit });
    for (const path of LICENSED_EXAMPLES) {
      await expectDeclared(gateway, path.replace(/^\/api\/changes$/, '/api/changes?since=2026-01-01'), { status: 429, code: 'RATE_LIMITED', key: gateway.keys.nonprofit });
    }
  });

  it('503 AUTH_STORAGE_UNAVAILABLE on every licensed route once the key store is gone', async () => {
    rmSync(join(gateway.dir, 'keys.sqlite'));
    // The key store notices within its check interval (test/gateway/limits-http/key-store-files.test.ts).
    const deadline = Date.now() + 5_000;
    for (;;) {
      const probe = await gateway.get('/api/cities', { key: gateway.keys.commercial });
      await probe.arrayBuffer();
      if (probe.status === 503 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const path of LICENSED_EXAMPLES) await expectDeclared(gateway, path, { status: 503, code: 'AUTH_STORAGE_UNAVAILABLE', key: gateway.keys.commercial });
  });
});

describe('route contract: a served file that fails its check is declared', () => {
  let gateway: TestGateway;
  before(async () => {
    // A private copy: the test damages the file it serves.
    const published = buildTestSnapshot();
    const dir = makeTempDir('hra-contract-dataset-');
    after(() => rmSync(dir, { recursive: true, force: true }));
    const dataset = join(dir, 'served.sqlite');
    for (const [from, to] of [[published, dataset], [checksumFileOf(published), checksumFileOf(dataset)], [segmentsFileOf(published), segmentsFileOf(dataset)]] as const) copyFileSync(from, to);
    gateway = await startTestGateway({ flags: { dataset }, limits: GENEROUS_LIMITS });
    truncateSync(dataset, 65_536);
    const deadline = Date.now() + 5_000;
    for (;;) {
      const probe = await gateway.get('/readyz');
      await probe.arrayBuffer();
      if (probe.status === 503 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  after(async () => {
    await gateway.close();
  });

  it('503 DATASET_UNAVAILABLE on every route that reads the snapshot; liveness and the OpenAPI document still answer', async () => {
    for (const path of EXAMPLE_PATHS) {
      const concrete = path.replace(/^\/api\/changes$/, '/api/changes?since=2026-01-01');
      const key = isLicensed(path) ? gateway.keys.commercial : undefined;
      if (['/healthz', '/openapi.json', '/docs'].includes(path)) await expectDeclared(gateway, concrete, { status: 200, key });
      else await expectDeclared(gateway, concrete, { status: 503, code: 'DATASET_UNAVAILABLE', key });
    }
  });
});

const EXCUSED = new Map([
  // The test corpus's city index, counts and fact audit are under 1 KiB (MIN_COMPRESSED_BODY_BYTES), so they
  // are never compressed here; the compressed walk above shows the rule on every larger body.
  ['/api/cities 200', ['content-encoding']],
  ['/api/cities/counts 200', ['content-encoding']],
  ['/api/dataset/reports/fact-audit-latest 200', ['content-encoding', 'vary']],
]);

describe('route contract: every declared header is sent', () => {
  it('by at least one response of each (operation, status) checked above', () => {
    assert.deepEqual(declarations.unsent(EXCUSED), []);
    const seen = new Set(declarations.seen());
    for (const template of Object.keys(doc.paths)) {
      for (const status of ['400', '405', '414', '431']) assert.ok(seen.has(`${template} ${status}`), `${template} ${status} was never checked`);
    }
  });
});
