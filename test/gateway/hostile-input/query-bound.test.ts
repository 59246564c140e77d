/**
 * The query bound on the real gateway (issue 11 item 1): a query of more than MAX_QUERY_PARAMETERS
 * parameters (`?a&a&…` x 4,000, or 33 distinct names) is a 400 `INVALID_PARAMETER` with the spec's error
 * headers on every route that reads a query, through the fast path and Koa alike. The bound is applied
 * after the request is metered, so a key whose quota is spent gets its plain 429 for the same query.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../../build/contract/api-version.ts';
import { MAX_QUERY_PARAMETERS } from '../../../gateway/http/parse-query.ts';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

const REPEATS = Array.from({ length: 4_000 }, () => 'a').join('&');
const distinct = (count: number) => Array.from({ length: count }, (_, index) => `p${index}=${index}`).join('&');

// Every route that reads a query, with the parameters it needs to succeed.
const ROUTES = ['/api/programs?', '/api/programs/alpha?', '/api/programs/national?', '/api/cities?', '/api/cities/counts?', '/api/changes?since=2026-01-01&'];

// The nonprofit key's day holds one request, spent in `before`; the others are never throttled.
const PUBLIC_PER_MINUTE = 1_000_000;
const LIMITS = {
  tiers: { trial: { perMinute: 1_000_000, perDay: 10_000_000 }, nonprofit: { perMinute: 1, perDay: 1 }, commercial: { perMinute: 1_000_000, perDay: 10_000_000 } },
  public: { perMinute: PUBLIC_PER_MINUTE },
};

async function assertTooMany(response: Response, where: string): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 400, `${where}: ${text.slice(0, 200)}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, where);
  const body = JSON.parse(text) as ApiErrorBody;
  assertMatchesSchema('apiError', body, where);
  assert.equal(body.code, 'INVALID_PARAMETER', where);
  assert.match(body.error ?? '', new RegExp(`more than ${MAX_QUERY_PARAMETERS} parameters`), where);
  // Spec 7: a 400 carries the rate-limit headers and X-Request-ID, and no dataset revision.
  assert.equal(response.headers.get('x-request-id'), 'query-bound-0001', where);
  assert.equal(response.headers.get('x-api-version'), API_VERSION, where);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.match(response.headers.get(name) ?? '', /^\d+$/, `${where} ${name}`);
  assert.equal(response.headers.get('x-dataset-revision'), null, where);
  assert.equal(response.headers.get('cache-control'), 'no-store', where);
}

describe(`query bound (${MAX_QUERY_PARAMETERS} parameters)`, () => {
  let gateway: TestGateway;
  const headers = { 'X-Request-ID': 'query-bound-0001' };
  before(async () => {
    gateway = await startTestGateway({ limits: LIMITS });
    assert.equal((await gateway.get('/api/cities', { key: gateway.keys.nonprofit })).status, 200, 'the one request of the nonprofit key');
  });
  after(async () => {
    await gateway.close();
  });

  for (const route of ROUTES) {
    it(`${route} refuses 4,000 repeats and ${MAX_QUERY_PARAMETERS + 1} distinct parameters, and serves ${MAX_QUERY_PARAMETERS}`, async () => {
      const key = gateway.keys.commercial;
      await assertTooMany(await gateway.get(`${route}${REPEATS}`, { key, headers }), `${route} x4000`);
      await assertTooMany(await gateway.get(`${route}${distinct(MAX_QUERY_PARAMETERS + 1)}`, { key, headers }), `${route} ${MAX_QUERY_PARAMETERS + 1} distinct`);
      // The route's own parameters count too: the change feed's `since` leaves room for 31 more.
      const own = route.endsWith('&') ? 1 : 0;
      const most = await gateway.get(`${route}${distinct(MAX_QUERY_PARAMETERS - own)}`, { key, headers });
      assert.equal(most.status, 200, `${route} ${MAX_QUERY_PARAMETERS} parameters: ${(await most.text()).slice(0, 200)}`);
    });
  }

  it('answers a key whose quota is spent 429, not 400, for the hostile query: the parse comes after the meter', async () => {
    for (const route of ROUTES) {
      const response = await gateway.get(`${route}${REPEATS}`, { key: gateway.keys.nonprofit, headers });
      const body = (await response.json()) as ApiErrorBody;
      assert.equal(response.status, 429, route);
      assert.equal(body.code, 'RATE_LIMITED', route);
    }
  });

  it('refuses the hostile query in a trial key\'s change-feed scope check, metered per client address', async () => {
    const response = await gateway.get(`/api/changes?since=2026-01-01&city=alpha&${REPEATS}`, { key: gateway.keys.trial, headers });
    assert.equal(response.headers.get('x-ratelimit-limit'), String(PUBLIC_PER_MINUTE), 'the public limit, not the key\'s');
    await assertTooMany(response, 'trial change feed');
  });
});
