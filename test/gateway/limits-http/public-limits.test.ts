/**
 * The per-address limit of keyless routes over real HTTP, and the rule that 401, 403 and scope-400
 * refusals are metered per client address, never against a key (docs/decisions.md).
 */
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { assertLimitHeaders, assertRateLimited, errorCode, steppedClock, type SteppedClock } from './limits-http-support.ts';

const PUBLIC_QUOTA = 4;
const LIMITS = { public: { perMinute: PUBLIC_QUOTA } };

describe('public per-address limit over HTTP', () => {
  let clock: SteppedClock;
  let direct: TestGateway;
  let proxied: TestGateway;
  before(async () => {
    clock = steppedClock();
    direct = await startTestGateway({ now: clock.now, limits: LIMITS });
    proxied = await startTestGateway({ now: clock.now, limits: LIMITS, flags: { trustProxy: true } });
  });
  after(async () => {
    await direct?.close();
    await proxied?.close();
  });
  beforeEach(() => clock.nextMinute(15_000));

  /** GETs `path` keyless with an optional X-Forwarded-For and checks the limit headers. */
  const get = async (gateway: TestGateway, path: string, forwardedFor?: string) => {
    const response = await gateway.get(path, { headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });
    return { response, headers: assertLimitHeaders(response, clock.now(), `${path} ${forwardedFor ?? ''}`) };
  };

  it(`every keyless route shares one ${PUBLIC_QUOTA}/min bucket per address; the next request is a 429 until the minute ends`, async () => {
    const paths = ['/api/sample', '/api/dataset/health', '/api/dataset/schema', '/openapi.json'];
    for (const [i, path] of paths.entries()) {
      const { response, headers } = await get(direct, path);
      assert.equal(response.status, 200, path);
      await response.arrayBuffer();
      assert.deepEqual([headers.window, headers.limit, headers.remaining], ['minute', PUBLIC_QUOTA, PUBLIC_QUOTA - 1 - i], path);
      assert.equal(response.headers.get('RateLimit-Policy'), `"minute";q=${PUBLIC_QUOTA};w=60`);
    }
    for (const path of ['/api/sample', '/api/data/readiness', '/no/such/route']) {
      const { response } = await get(direct, path);
      assert.equal(await assertRateLimited(response, path), 45);
    }
    clock.nextMinute(0);
    assert.equal((await get(direct, '/api/sample')).response.status, 200);
  });

  it('ignores X-Forwarded-For without --trust-proxy: two forwarded addresses share one bucket', async () => {
    for (let used = 1; used <= PUBLIC_QUOTA; used++) {
      const { response, headers } = await get(direct, '/api/dataset/schema', used % 2 ? '203.0.113.1' : '203.0.113.2');
      assert.equal(response.status, 200);
      assert.equal(headers.remaining, PUBLIC_QUOTA - used);
    }
    await assertRateLimited((await get(direct, '/api/dataset/schema', '203.0.113.3')).response);
  });

  it('honors X-Forwarded-For with --trust-proxy: each forwarded address has its own bucket', async () => {
    for (const address of ['203.0.113.1', '203.0.113.2']) {
      for (let used = 1; used <= PUBLIC_QUOTA; used++) {
        const { response, headers } = await get(proxied, '/api/dataset/schema', address);
        assert.equal(response.status, 200, address);
        assert.equal(headers.remaining, PUBLIC_QUOTA - used, address);
      }
      await assertRateLimited((await get(proxied, '/api/dataset/schema', address)).response, address);
    }
    // The proxy's own address (no header) was never charged.
    assert.equal((await get(proxied, '/api/dataset/schema')).headers.remaining, PUBLIC_QUOTA - 1);
  });

  it('with --trust-proxy, only the address the proxy appended counts; a client-written prefix cannot mint buckets', async () => {
    for (let used = 1; used <= PUBLIC_QUOTA; used++) {
      const { response, headers } = await get(proxied, '/api/dataset/schema', `198.51.100.${used}, 203.0.113.9`);
      assert.equal(response.status, 200);
      assert.equal(headers.remaining, PUBLIC_QUOTA - used);
    }
    await assertRateLimited((await get(proxied, '/api/dataset/schema', '198.51.100.77, 203.0.113.9')).response);
  });
});

describe('refusals are metered per address, never against a key', () => {
  const REFUSALS_QUOTA = 40;
  let clock: SteppedClock;
  let gateway: TestGateway;
  before(async () => {
    clock = steppedClock();
    gateway = await startTestGateway({ now: clock.now, limits: { public: { perMinute: REFUSALS_QUOTA } } });
  });
  after(async () => {
    await gateway?.close();
  });

  it('401, 403 and scope refusals from one address spend its public bucket; the valid key keeps its whole quota', async () => {
    clock.nextMinute(5_000);
    const { keys } = gateway;
    const refusals = [
      { path: '/api/cities', key: keys.revoked, status: 403, code: 'API_KEY_REVOKED' },
      { path: '/api/programs/gamma', key: keys.trial, status: 403, code: 'API_TRIAL_CITY_FORBIDDEN' },
      { path: '/api/programs/national', key: keys.trial, status: 403, code: 'API_TIER_FORBIDDEN' },
      { path: '/api/changes?since=2026-01-01', key: keys.trial, status: 400, code: 'API_TRIAL_CITY_REQUIRED' },
      { path: '/api/cities', key: keys.expired, status: 403, code: 'API_KEY_EXPIRED' },
      { path: '/api/cities', key: undefined, status: 401, code: 'API_KEY_REQUIRED' },
      { path: '/api/cities', key: 'hra_t_guessed-key-0000', status: 401, code: 'INVALID_API_KEY' },
    ];
    let used = 0;
    while (used < REFUSALS_QUOTA) {
      const refusal = refusals[used % refusals.length]!;
      const response = await gateway.get(refusal.path, { key: refusal.key });
      used += 1;
      const where = `refusal ${used} ${refusal.code}`;
      assert.equal(response.status, refusal.status, where);
      assert.equal(await errorCode(response, where), refusal.code, where);
      const headers = assertLimitHeaders(response, clock.now(), where);
      assert.deepEqual([headers.limit, headers.remaining], [REFUSALS_QUOTA, REFUSALS_QUOTA - used], where);
      assert.equal(response.headers.get('X-Dataset-Revision'), null, where);
    }
    // The address is spent: further refusals are 429s of the address, whatever key they name.
    for (const refusal of refusals) await assertRateLimited(await gateway.get(refusal.path, { key: refusal.key }), refusal.code);
    // The trial key, refused for scope again and again above, was never charged: its whole quota is left.
    const own = await gateway.get('/api/programs/alpha', { key: keys.trial });
    assert.equal(own.status, 200);
    assert.deepEqual([assertLimitHeaders(own, clock.now()).limit, assertLimitHeaders(own, clock.now()).remaining], [60, 59]);
    const other = await gateway.get('/api/cities', { key: keys.commercial });
    assert.equal(other.status, 200);
    assert.equal(assertLimitHeaders(other, clock.now()).remaining, 599);
  });
});
