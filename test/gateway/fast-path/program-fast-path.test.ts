/**
 * The fast path against the Koa chain it stands in for: two real gateways over one snapshot, one key store
 * and one frozen clock, one with the fast path and one without, get the same requests in the same order.
 * Every answer must match byte for byte (status, every header but Date, body) and so must the log line;
 * and the fast path must have answered the requests it is meant to take, or the comparison proves nothing.
 * The program routes are walked first, then every other route the fast path takes (keyless documents with
 * their 304s, health and readiness, the probes, cities and counts, stored change pages).
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRequestListener } from '../../../gateway/app.ts';
import { ApiError } from '../../../gateway/http/api-error.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { openSnapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { SnapshotHolder } from '../../../gateway/snapshot/snapshot-holder.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways, type KeyName } from '../../support/fast-and-koa-gateways.ts';
import { captureLogger } from '../observability/capture-logger.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';

// Frozen, so both gateways see the same windows and every rate-limit header can be compared exactly.
const NOW = Date.parse('2026-11-21T12:00:30.000Z');

// One cursor secret, so both gateways sign the same change-feed cursors.
const CURSOR_SECRET = 'fast-path-differential-cursor-secret-01';

// The nonprofit key runs out within the walk, so the fast path's 429 is compared too.
const LIMITS = {
  tiers: { trial: { perMinute: 1_000_000, perDay: 10_000_000 }, nonprofit: { perMinute: 40, perDay: 10_000_000 }, commercial: { perMinute: 1_000_000, perDay: 10_000_000 } },
  public: { perMinute: 1_000_000 },
};

const KEY_NAMES: readonly KeyName[] = ['commercial', 'nonprofit', 'trial', 'revoked', 'expired', 'none', 'malformed', 'unknown'];

const PATHS = [
  '/api/programs', '/api/programs/alpha', '/api/programs/beta', '/api/programs/gamma', '/api/programs/delta', '/api/programs/nowhere',
  '/api/programs/national', '/api/programs/alpha/a-roof', '/api/programs/alpha/a-quar', '/api/programs/alpha/a-bills', '/api/programs/alpha/nope',
  '/api/programs/beta/b-repair', '/api/programs/gamma/g-adj', '/api/programs/national/usda-504', '/api/programs/national/nope',
  // Request lines the fast path leaves to Koa's router: its answers must still be the same.
  '/api/programs/alpha/', '/api/programs/Alpha', '/api/programs/al%70ha', '/API/programs/alpha', '/api/programs//alpha', '/api/programs/alpha/a-roof/extra',
  '/api/programs/%E0%A4%A',
];

const QUERIES = ['', '?', '?type=grant', '?income=low', '?project=roof', '?project=Roofing', '?special=seniors', '?special=astronauts', '?category=home-repair',
  '?status=available', '?status=bogus', '?type=grant&type=loan', '?income=low&project=roof', '?type=%20grant%20', '?type=%ZZ', '?type=', '?unrelated=1', `?type=${'x'.repeat(201)}`,
  // Past the query bound (gateway/http/parse-query.ts): the fast path declines it, Koa answers the 400.
  `?${Array.from({ length: 40 }, () => 'a').join('&')}`, `?${Array.from({ length: 33 }, (_, index) => `p${index}=1`).join('&')}`];

// The keyless and city routes, with queries each reads (and refuses), and the change feed's pages.
const CACHEABLE_PATHS = ['/api/sample', '/api/dataset/schema', '/api/dataset/export-schema', '/openapi.json', '/docs'];
const OTHER_PATHS = [
  ...CACHEABLE_PATHS, '/api/sample?anything=1', '/api/dataset/health', '/api/data/readiness', '/healthz', '/readyz',
  '/api/dataset/reports/fact-audit-latest', '/api/dataset/reports/state-home-improvement-2026',
  '/api/cities', '/api/cities?status=live', '/api/cities?status=retired', '/api/cities?status=live&status=live', '/api/cities/counts', '/api/cities/counts?status=',
  '/api/changes?since=2026-01-01', '/api/changes?since=2026-01-01&limit=1', '/api/changes?since=2026-01-01&city=alpha', '/api/changes?since=2026-01-01&city=beta&limit=2',
  '/api/changes?since=2026-01-01&city=nowhere', '/api/changes?since=2026-01-01&city=Bad_Slug', '/api/changes?since=yesterday', '/api/changes', '/api/changes?since=2026-01-01&cursor=forged',
  '/api/sample/', '/healthz/', '/API/SAMPLE', '/OPENAPI.JSON', '/api/sample?utm=%ZZ', '/readyz?%',
];

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

async function ask(url: string, path: string, key: string | undefined, method: string, requestId: string, extra: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}${path}`, { method, headers: { 'X-Request-ID': requestId, ...(key === undefined ? {} : { 'X-Api-Key': key }), ...extra } });
  const headers = [...response.headers.entries()].filter(([name]) => name !== 'date').sort(([a], [b]) => a.localeCompare(b));
  return { status: response.status, headers, body: await response.text() };
}

describe('program fast path', () => {
  let gateways: FastAndKoaGateways;

  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: LIMITS, now: () => NOW, cursorSecret: CURSOR_SECRET });
  });
  after(() => gateways.close());

  it('answers every program request exactly as the Koa chain does, and logs it alike', async () => {
    const { fast, koa, fastLog, koaLog, keyOf } = gateways;
    let sequence = 0;
    const requests: { path: string; key: KeyName; method: string }[] = [];
    for (const path of PATHS) {
      for (const query of path.split('/').length > 4 ? ['', '?type=grant'] : QUERIES) {
        for (const key of KEY_NAMES) requests.push({ path: `${path}${query}`, key, method: 'GET' });
      }
      for (const key of KEY_NAMES) requests.push({ path, key, method: 'HEAD' });
    }
    for (const request of requests) {
      const requestId = `fast-path-${String(sequence++).padStart(5, '0')}`;
      await gateways.settled();
      const viaFast = await ask(fast.url, request.path, keyOf(request.key), request.method, requestId);
      const viaKoa = await ask(koa.url, request.path, keyOf(request.key), request.method, requestId);
      assert.deepEqual(viaFast, viaKoa, `${request.method} ${request.path} with the ${request.key} key`);
    }

    const stripped = (lines: Record<string, unknown>[]) => lines.map(({ time: _time, durationMs: _ms, pid: _pid, fastPath: _fast, ...rest }) => rest);
    assert.equal(fastLog.requests().length, requests.length);
    assert.deepEqual(stripped(fastLog.requests()), stripped(koaLog.requests()));

    // Which requests the fast path took: every metered answer of a plain program route, and nothing else.
    const taken = fastLog.requests().filter((line) => line.fastPath === true);
    const statuses = new Set(taken.map((line) => line.status));
    assert.deepEqual([...statuses].sort(), [200, 429], 'the fast path answered both successes and a rate-limited key');
    // Every success on a plain request line was the fast path's; only the unusual lines were left to Koa.
    const plain = /^\/api\/programs(\/[a-z0-9-]+(\/[A-Za-z0-9._-]+)?)?(\?|$)/;
    fastLog.requests().forEach((line, index) => {
      const request = requests[index];
      assert.ok(request !== undefined);
      if (line.status === 200 && plain.test(request.path)) assert.equal(line.fastPath, true, `${request.method} ${request.path} went through Koa`);
    });
    assert.equal(koaLog.requests().some((line) => line.fastPath !== undefined), false);
    for (const line of taken) assert.ok(['/api/programs', '/api/programs/:city', '/api/programs/national', '/api/programs/:city/:programId'].includes(line.route as string));
    const declinedSuccess = fastLog.requests().filter((line) => line.fastPath === undefined && line.status === 200);
    assert.ok(declinedSuccess.length > 0, 'unusual request lines (a trailing slash, an encoded slug) were still served, by Koa');
  });

  it('answers every other route exactly as the Koa chain does, and logs it alike', async () => {
    const { fast, koa, fastLog, koaLog, keyOf } = gateways;
    const etags = new Map<string, string>();
    // Asked of both, so both count the same requests against the address.
    for (const path of CACHEABLE_PATHS) {
      etags.set(path, (await fetch(`${fast.url}${path}`)).headers.get('etag') ?? '');
      await (await fetch(`${koa.url}${path}`)).arrayBuffer();
    }
    const requests: { path: string; key: KeyName; method: string; headers?: Record<string, string> }[] = [];
    for (const path of OTHER_PATHS) {
      for (const key of KEY_NAMES) {
        requests.push({ path, key, method: 'GET' });
        // Asked twice: a change page the first request stored is at hand for the second.
        if (path.startsWith('/api/changes')) requests.push({ path, key, method: 'GET' });
      }
      requests.push({ path, key: 'commercial', method: 'HEAD' });
      requests.push({ path, key: 'none', method: 'HEAD' });
    }
    for (const path of CACHEABLE_PATHS) {
      for (const ifNoneMatch of [etags.get(path) ?? '', `W/${etags.get(path) ?? ''}`, '*', '"nope"', `"nope", ${etags.get(path) ?? ''}`]) {
        requests.push({ path, key: 'none', method: 'GET', headers: { 'If-None-Match': ifNoneMatch } });
        requests.push({ path, key: 'none', method: 'HEAD', headers: { 'If-None-Match': ifNoneMatch } });
      }
    }
    const fastBefore = fastLog.requests().length;
    const koaBefore = koaLog.requests().length;
    let sequence = 0;
    for (const request of requests) {
      const requestId = `fast-other-${String(sequence++).padStart(5, '0')}`;
      await gateways.settled();
      const viaFast = await ask(fast.url, request.path, keyOf(request.key), request.method, requestId, request.headers);
      const viaKoa = await ask(koa.url, request.path, keyOf(request.key), request.method, requestId, request.headers);
      assert.deepEqual(viaFast, viaKoa, `${request.method} ${request.path} with the ${request.key} key ${JSON.stringify(request.headers ?? {})}`);
    }

    const stripped = (lines: Record<string, unknown>[]) => lines.map(({ time: _time, durationMs: _ms, pid: _pid, fastPath: _fast, ...rest }) => rest);
    const fastLines = fastLog.requests().slice(fastBefore);
    assert.equal(fastLines.length, requests.length);
    assert.deepEqual(stripped(fastLines), stripped(koaLog.requests().slice(koaBefore)));

    // Every route of the walk had successes the fast path answered, 304s included.
    const taken = fastLines.filter((line) => line.fastPath === true);
    for (const route of ['/api/sample', '/api/dataset/health', '/api/data/readiness', '/api/dataset/schema', '/api/dataset/export-schema', '/openapi.json', '/docs',
      '/api/cities', '/api/cities/counts', '/api/changes', '/healthz', '/readyz']) {
      assert.ok(taken.some((line) => line.route === route && line.status === 200), `the fast path answered ${route}`);
    }
    assert.ok(taken.some((line) => line.status === 304), 'the fast path answered a 304');
    assert.ok(fastLines.some((line) => line.route === '/api/changes' && line.status === 200 && line.fastPath === undefined), 'a change page not yet stored went to Koa');
  });
});

describe('program fast path failures', () => {
  let server: Server;
  let url: string;
  let failure: Error;
  const captured = captureLogger();
  before(async () => {
    const snapshots = new SnapshotHolder(openSnapshot(buildTestSnapshot()));
    const limiter = new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now });
    const listener = createRequestListener({
      snapshots,
      lookupKey: () => ({ kind: 'valid', key: Object.freeze({ id: 'key_fixed', tier: 'commercial', cities: null, expiresAt: null }) as never }),
      // A limiter failing in a way nobody planned for: not a storage error, so not a 503.
      limiter: { scheme: 'memory', consumeKey: () => Promise.reject(failure), consumePublic: (address) => limiter.consumePublic(address), close: () => limiter.close() },
      now: Date.now,
      infrastructure: { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false },
      trustProxy: false,
      cursorKeys: new CursorKeyring(Buffer.from('test-secret-for-fast-path-000001')),
      log: captured.log,
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers an unexpected failure after metering with a generic 500, logged and not leaked', async () => {
    failure = new Error('limiter exploded at /var/secret/path');
    const response = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': 'anything', 'X-Request-ID': 'fast-boom-0001' } });
    const body = await response.text();
    assert.equal(response.status, 500);
    assert.deepEqual(JSON.parse(body), { error: 'internal error', code: 'INTERNAL_ERROR' });
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-dataset-revision'), null);
    assert.equal(response.headers.get('x-request-id'), 'fast-boom-0001');
    const logged = captured.lines().find((line) => line.msg === 'unexpected error');
    assert.ok(logged !== undefined, 'the failure was logged');
    assert.equal(logged.requestId, 'fast-boom-0001');
    assert.equal(logged.path, '/api/programs/alpha');
    const line = captured.requests().at(-1);
    assert.equal(line?.status, 500);
    assert.equal(line?.fastPath, true);
  });

  it('renders an ApiError thrown after metering with its own status and code', async () => {
    failure = new ApiError(503, 'RATE_LIMIT_STORAGE_UNAVAILABLE', 'rate-limit storage is unavailable; retry shortly', { retryAfter: 1 });
    const response = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': 'anything' } });
    assert.equal(response.status, 503);
    assert.equal((await response.json() as ApiErrorBody).code, 'RATE_LIMIT_STORAGE_UNAVAILABLE');
    assert.equal(response.headers.get('retry-after'), '1');
  });
});
