/**
 * The envelope contract, frozen (STYLE 10): every route with every kind of key, checking status, `code`,
 * body schema and the header rules of spec 4.1, 4.4, 7 and 9 on each response.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../build/contract/api-version.ts';
import { assertMatchesSchema, type ContractSchemaName } from '../support/contract-validators.ts';
import { startTestGateway, type TestGateway, type TestKeys } from '../support/start-test-gateway.ts';

type KeyKind = keyof TestKeys | 'none' | 'bogus';

interface Case {
  path: string;
  key: KeyKind;
  status: number;
  schema: ContractSchemaName;
  code?: string;
  method?: string;
}

const LICENSED_ROUTES = ['/api/cities', '/api/cities/counts', '/api/programs', '/api/programs/alpha', '/api/programs/national', '/api/programs/alpha/a-roof', '/api/changes?since=2026-01-01'];

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
  { path: '/api/cities', key: 'commercial', status: 405, schema: 'apiError', code: 'METHOD_NOT_ALLOWED', method: 'POST' },
  { path: '/no/such/route', key: 'commercial', status: 404, schema: 'apiError', code: 'NOT_FOUND' },
  ...LICENSED_ROUTES.flatMap((path): Case[] => [
    { path, key: 'none', status: 401, schema: 'apiError', code: 'API_KEY_REQUIRED' },
    { path, key: 'bogus', status: 401, schema: 'apiError', code: 'INVALID_API_KEY' },
    { path, key: 'revoked', status: 403, schema: 'apiError', code: 'API_KEY_REVOKED' },
    { path, key: 'expired', status: 403, schema: 'apiError', code: 'API_KEY_EXPIRED' },
  ]),
];

const isLicensed = (path: string) => path.startsWith('/api/cities') || path.startsWith('/api/programs') || path.startsWith('/api/changes');

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
});
