/** Caching (spec 4.4), HEAD, deprecation headers (spec 9.4), readiness gates (2.9) and trial-scoped city lists. */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRequestListener } from '../../gateway/app.ts';
import { createGatewayLogger } from '../../gateway/observability/gateway-logger.ts';
import type { Deprecation } from '../../gateway/pipeline/deprecation-headers.ts';
import { ROUTE_TABLE } from '../../gateway/routes/route-table.ts';
import { MemoryRateLimiter } from '../../gateway/limits/memory-rate-limiter.ts';
import { DEFAULT_LIMITS } from '../../gateway/limits/limit-table.ts';
import { openSnapshot } from '../../gateway/snapshot/open-snapshot.ts';
import { SnapshotHolder } from '../../gateway/snapshot/snapshot-holder.ts';
import { assertMatchesSchema } from '../support/contract-validators.ts';
import { buildTestSnapshot, startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import type { CityCounts, CityList } from '../../build/contract/city-schema.ts';
import type { Health } from '../../build/contract/health-schema.ts';
import type { Readiness } from '../../build/contract/readiness-schema.ts';
import { CursorKeyring } from '../../gateway/changes/cursor-keyring.ts';

describe('conditional GET on the ETag allowlist', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(async () => {
    await gateway.close();
  });

  for (const path of ['/api/sample', '/api/dataset/schema', '/api/dataset/export-schema', '/openapi.json']) {
    it(`${path}: strong ETag, 304 without a body on If-None-Match`, async () => {
      // Identity throughout: a tag revalidates only the coding it names (test/gateway/encoding/compressed-responses.test.ts).
      const identity = { 'Accept-Encoding': 'identity' };
      const first = await gateway.get(path, { headers: identity });
      assert.equal(first.status, 200);
      const etag = first.headers.get('etag') ?? '';
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'strong ETag');
      await first.arrayBuffer();
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await gateway.get(path, { headers: { ...identity, 'If-None-Match': header } });
        assert.equal(again.status, 304, header);
        assert.equal((await again.arrayBuffer()).byteLength, 0);
        assert.equal(again.headers.get('etag'), etag, header);
        assert.match(again.headers.get('x-dataset-revision') ?? '', /^gm1-/);
      }
      const miss = await gateway.get(path, { headers: { ...identity, 'If-None-Match': '"stale"' } });
      assert.equal(miss.status, 200);
      await miss.arrayBuffer();
    });
  }

  it('health and readiness are public but carry no ETag', async () => {
    for (const path of ['/api/dataset/health', '/api/data/readiness']) {
      const response = await gateway.get(path);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('etag'), null);
      await response.arrayBuffer();
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    for (const coding of ['identity', 'gzip', 'br']) {
      const headers = { 'Accept-Encoding': coding };
      // The first request of a coding starts its compression; compare once it is stored.
      await (await gateway.get('/api/programs/alpha', { key: gateway.keys.commercial, headers })).arrayBuffer();
      await gateway.gateway.encodings.settled();
      const get = await gateway.get('/api/programs/alpha', { key: gateway.keys.commercial, headers });
      await get.arrayBuffer();
      const head = await gateway.get('/api/programs/alpha', { key: gateway.keys.commercial, method: 'HEAD', headers });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-encoding'), coding === 'identity' ? null : coding);
      for (const name of ['content-length', 'content-encoding', 'vary', 'content-type', 'x-dataset-revision', 'cache-control']) assert.equal(head.headers.get(name), get.headers.get(name), `${coding}: ${name}`);
      assert.equal((await head.arrayBuffer()).byteLength, 0);
    }
  });

  it('filters the city index and counts to a trial key\'s allowlist', async () => {
    const cities = (await (await gateway.get('/api/cities', { key: gateway.keys.trial })).json()) as CityList;
    assert.deepEqual(cities.cities.map((city) => city.slug), ['alpha', 'beta']);
    assert.equal(cities.count, 2);
    const counts = (await (await gateway.get('/api/cities/counts', { key: gateway.keys.trial })).json()) as CityCounts;
    assert.deepEqual(counts.cities.map((city) => [city.slug, city.programCount]), [['alpha', 4], ['beta', 3]]);
    assert.equal(counts.totalPrograms, 7);
    const all = (await (await gateway.get('/api/cities/counts', { key: gateway.keys.commercial })).json()) as CityCounts;
    assert.deepEqual([all.count, all.totalPrograms], [3, 8]);
    const pending = (await (await gateway.get('/api/cities?status=pending', { key: gateway.keys.commercial })).json()) as CityList;
    assert.equal(pending.count, 0, 'the licensed scope holds live cities only');
  });

  it('embeds live readiness in health; red gates give reasons on the embedded defaults', async () => {
    const health = (await (await gateway.get('/api/dataset/health')).json()) as Health;
    assertMatchesSchema('health', health);
    const readiness = (await (await gateway.get('/api/data/readiness')).json()) as Readiness;
    assert.equal(readiness.code, 'DATASET_CHECKOUT_NOT_READY');
    assert.equal(readiness.checkoutEnabled, false);
    assert.deepEqual(readiness.reasons.map((reason) => reason.code).sort(), ['RATE_LIMIT_STORAGE_NOT_SHARED', 'TRUSTED_PROXY_NOT_CONFIGURED']);
    assert.equal(health.paidLicensing.readinessDigest, readiness.readinessDigest, 'deterministic over its inputs');
  });
});

describe('deprecation headers', () => {
  let server: Server;
  let url: string;
  before(async () => {
    const snapshots = new SnapshotHolder(openSnapshot(buildTestSnapshot()));
    const DEPRECATIONS = new Map<string, Deprecation>([
      ['/api/dataset/schema', { deprecatedAt: new Date('2026-11-01T00:00:00Z'), sunset: new Date('2027-03-01T00:00:00Z'), successor: '/api/v2/dataset/schema' }],
      // A program route the fast path answers: it sends them as the Koa chain does (test/gateway/fast-path/deprecated-fast-path.test.ts).
      ['/api/programs/:city/:programId', { deprecatedAt: new Date('2026-11-01T00:00:00Z'), sunset: new Date('2027-03-01T00:00:00Z'), successor: '/api/v2/programs/{city}/{programId}' }],
    ]);
    const listener = createRequestListener({
      snapshots,
      lookupKey: (raw) => (raw === 'valid' ? { kind: 'valid', key: Object.freeze({ id: 'key_fixed', tier: 'commercial', cities: null, expiresAt: null }) as never } : { kind: 'missing' }),
      limiter: new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now }),
      now: Date.now,
      infrastructure: { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false },
      trustProxy: false,
      cursorKeys: new CursorKeyring(Buffer.from('test-secret-for-deprecation-0001')),
      log: createGatewayLogger({ level: 'silent' }),
      // Deprecations are declared by the route table's entries; these are on a copy of it.
      routes: ROUTE_TABLE.map((route) => {
        const deprecation = DEPRECATIONS.get(route.path);
        return deprecation === undefined ? route : { ...route, deprecation };
      }),
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends Deprecation, Sunset and Link on a deprecated route only', async () => {
    const deprecated = await fetch(`${url}/api/dataset/schema`);
    assert.equal(deprecated.headers.get('deprecation'), `@${Date.parse('2026-11-01T00:00:00Z') / 1000}`);
    assert.equal(deprecated.headers.get('sunset'), 'Mon, 01 Mar 2027 00:00:00 GMT');
    assert.equal(deprecated.headers.get('link'), '</api/v2/dataset/schema>; rel="successor-version"');
    const current = await fetch(`${url}/api/dataset/export-schema`);
    assert.equal(current.headers.get('deprecation'), null);
    assert.equal(current.headers.get('sunset'), null);
  });

  it('sends them on a deprecated licensed program route too, and not on its sibling routes', async () => {
    const deprecated = await fetch(`${url}/api/programs/alpha/a-roof`, { headers: { 'X-Api-Key': 'valid' } });
    assert.equal(deprecated.status, 200);
    assert.equal(deprecated.headers.get('deprecation'), `@${Date.parse('2026-11-01T00:00:00Z') / 1000}`);
    assert.equal(deprecated.headers.get('link'), '</api/v2/programs/{city}/{programId}>; rel="successor-version"');
    const current = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': 'valid' } });
    assert.equal(current.status, 200);
    assert.equal(current.headers.get('deprecation'), null);
  });
});

describe('readiness when every gate is green', () => {
  let gateway: TestGateway;
  before(async () => {
    // The fixture approves its commercial release and its audit is within thresholds; a trusted proxy is
    // configured here; only shared storage (Redis) remains red, which the limits-http tests turn green.
    gateway = await startTestGateway({ flags: { trustProxy: true }, now: () => Date.parse('2026-11-20T12:00:00Z') });
  });
  after(async () => {
    await gateway.close();
  });

  it('lists exactly the one red gate left and reports the audit age at request time', async () => {
    const readiness = (await (await gateway.get('/api/data/readiness')).json()) as Readiness;
    assert.deepEqual(readiness.reasons.map((reason) => reason.code), ['RATE_LIMIT_STORAGE_NOT_SHARED']);
    assert.equal(readiness.strictAudit.ageDays, 15);
    assert.equal(readiness.strictAudit.green, true);
    assert.equal(readiness.commercialRelease.green, true);
    assert.equal(readiness.checkedAt, '2026-11-20T12:00:00.000Z');
  });
});
