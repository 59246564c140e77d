/** Metrics (issue 7): the admin port, the series it serves, and labels that stay bounded whatever is sent. */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRequestListener } from '../../../gateway/app.ts';
import { KeyStoreUnavailableError } from '../../../gateway/keys/key-errors.ts';
import { RateLimitStorageError, type RateLimiter } from '../../../gateway/limits/rate-limiter.ts';
import { createGatewayLogger } from '../../../gateway/observability/gateway-logger.ts';
import { createGatewayMetrics, type GatewayMetrics } from '../../../gateway/observability/gateway-metrics.ts';
import { openSnapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { SnapshotHolder } from '../../../gateway/snapshot/snapshot-holder.ts';
import { buildTestSnapshot, GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';

/** One sample of the text format: name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseSamples(text: string): Sample[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] as string] = pair[2] as string;
    return { name: match[1] as string, labels, value: Number(match[3]) };
  });
}

const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((sample) => sample.name === name && Object.entries(labels).every(([label, expected]) => sample.labels[label] === expected))?.value;

async function scrape(base: string): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseSamples(await response.text());
}

/** Every route template the gateway registers, plus `unmatched`: the only values `route` may take. */
const ROUTE_LABELS = new Set([
  'unmatched', '/api/sample', '/api/dataset/health', '/api/data/readiness', '/api/dataset/schema', '/api/dataset/export-schema', '/openapi.json',
  '/api/dataset/reports/fact-audit-latest', '/api/dataset/reports/fact-audit-legacy-2026-06-17', '/api/dataset/reports/state-home-improvement-2026',
  '/api/cities', '/api/cities/counts', '/api/programs', '/api/programs/national', '/api/programs/:city', '/api/programs/:city/:programId', '/api/changes',
  '/healthz', '/readyz', '/livez',
]);

describe('metrics admin port', () => {
  it('is off by default', async () => {
    const gateway = await startTestGateway();
    try {
      assert.equal(gateway.gateway.metricsUrl, undefined);
    } finally {
      await gateway.close();
    }
  });

  describe('when --metrics-port is set', () => {
    let gateway: TestGateway;
    let metricsUrl: string;
    before(async () => {
      gateway = await startTestGateway({ limits: GENEROUS_LIMITS, flags: { metricsPort: '0' } });
      metricsUrl = gateway.gateway.metricsUrl ?? assert.fail('no metrics URL');
    });
    after(async () => {
      await gateway.close();
    });

    it('listens on the API host, on a port of its own', () => {
      assert.equal(new URL(metricsUrl).hostname, new URL(gateway.url).hostname);
      assert.notEqual(new URL(metricsUrl).port, new URL(gateway.url).port);
    });

    it('answers 404 to everything but GET /metrics', async () => {
      for (const [path, method] of [['/', 'GET'], ['/metrics/x', 'GET'], ['/api/sample', 'GET'], ['/metrics', 'POST']] as const) {
        const response = await fetch(`${metricsUrl}${path}`, { method });
        await response.arrayBuffer();
        assert.equal(response.status, 404, `${method} ${path}`);
      }
    });

    it('counts requests by route template, method and status class, and times them', async () => {
      const beforeScrape = await scrape(metricsUrl);
      const requests = (route: string, method: string, statusClass: string, samples: Sample[]) =>
        value(samples, 'hra_http_requests_total', { route, method, status_class: statusClass }) ?? 0;
      const calls: Array<[string, { key?: string; method?: string }]> = [
        ['/api/programs/alpha', { key: gateway.keys.commercial }],
        ['/api/programs/beta', { key: gateway.keys.commercial }],
        ['/api/programs/nowhere', { key: gateway.keys.commercial }],
        ['/api/cities', { key: gateway.keys.trial, method: 'HEAD' }],
        ['/not/a/route', {}],
        ['/api/cities', { method: 'PATCH' }],
      ];
      for (const [path, options] of calls) await (await gateway.get(path, options)).arrayBuffer();
      const afterScrape = await scrape(metricsUrl);
      const delta = (route: string, method: string, statusClass: string) => requests(route, method, statusClass, afterScrape) - requests(route, method, statusClass, beforeScrape);
      assert.equal(delta('/api/programs/:city', 'GET', '2xx'), 2);
      assert.equal(delta('/api/programs/:city', 'GET', '4xx'), 1);
      assert.equal(delta('/api/cities', 'HEAD', '2xx'), 1);
      assert.equal(delta('unmatched', 'GET', '4xx'), 1);
      assert.equal(delta('unmatched', 'other', '4xx'), 1);
      const count = value(afterScrape, 'hra_http_request_duration_seconds_count', { route: '/api/programs/:city' }) ?? 0;
      assert.ok(count >= 3);
      assert.ok((value(afterScrape, 'hra_http_request_duration_seconds_bucket', { route: '/api/programs/:city', le: '+Inf' }) ?? 0) === count);
    });

    it('reports the served revision, and process metrics', async () => {
      const samples = await scrape(metricsUrl);
      const revisions = samples.filter((sample) => sample.name === 'hra_dataset_revision_info');
      assert.deepEqual(revisions.map((sample) => [sample.labels.revision, sample.value]), [[gateway.gateway.snapshots.current.revision, 1]]);
      assert.ok(samples.some((sample) => sample.name === 'process_resident_memory_bytes' || sample.name === 'nodejs_heap_size_used_bytes'));
      for (const scope of ['key', 'public']) assert.equal(typeof value(samples, 'hra_rate_limit_rejections_total', { scope }), 'number', scope);
      for (const storage of ['rate_limit', 'key_store']) assert.equal(typeof value(samples, 'hra_storage_faults_total', { storage }), 'number', storage);
    });

    it('keeps labels bounded: route templates, method classes, never keys, addresses or raw paths', async () => {
      const junk = ['%E0%A4%A', 'zzjunkzz', '..%2f..%2fetc', 'caf%C3%A9', 'x'.repeat(300)];
      for (const [index, segment] of junk.entries()) {
        for (const [path, options] of [
          [`/api/programs/${segment}`, { key: gateway.keys.commercial }],
          [`/api/programs/alpha/${segment}`, { key: gateway.keys.trial }],
          [`/${segment}/${index}`, { headers: { 'X-Forwarded-For': `203.0.113.${index}` } }],
          [`/api/cities?status=${segment}`, { key: `hra_c_${segment}` }],
          [`/api/sample`, { method: 'PUT' }],
        ] as const) await (await gateway.get(path, options as never)).arrayBuffer();
      }
      const response = await fetch(`${metricsUrl}/metrics`);
      const text = await response.text();
      for (const sample of parseSamples(text).filter((candidate) => candidate.name.startsWith('hra_'))) {
        if (sample.labels.route !== undefined) assert.ok(ROUTE_LABELS.has(sample.labels.route), `route label ${sample.labels.route}`);
        if (sample.labels.method !== undefined) assert.ok(['GET', 'HEAD', 'other'].includes(sample.labels.method), `method label ${sample.labels.method}`);
        if (sample.labels.status_class !== undefined) assert.match(sample.labels.status_class, /^[1-5]xx$/);
        if (sample.labels.encoding !== undefined) assert.ok(['br', 'gzip', 'identity'].includes(sample.labels.encoding), `encoding label ${sample.labels.encoding}`);
        const names = Object.keys(sample.labels).filter((name) => name !== 'le');
        assert.ok(names.every((name) => ['route', 'method', 'status_class', 'scope', 'storage', 'revision', 'encoding'].includes(name)), `labels of ${sample.name}: ${names.join(', ')}`);
      }
      for (const secret of [...Object.values(gateway.keys), ...Object.values(gateway.keyIds), 'zzjunkzz', '203.0.113', '127.0.0.1']) {
        assert.equal(text.includes(secret), false, `metrics mention ${secret}`);
      }
    });
  });

  it('counts rejections by scope', async () => {
    const gateway = await startTestGateway({ flags: { metricsPort: '0' }, limits: { public: { perMinute: 1 }, tiers: { trial: { perMinute: 1 } } } });
    try {
      for (let index = 0; index < 3; index += 1) await (await gateway.get('/api/sample')).arrayBuffer();
      for (let index = 0; index < 2; index += 1) await (await gateway.get('/api/programs/alpha', { key: gateway.keys.trial })).arrayBuffer();
      const samples = await scrape(gateway.gateway.metricsUrl ?? assert.fail('no metrics URL'));
      assert.equal(value(samples, 'hra_rate_limit_rejections_total', { scope: 'public' }), 2);
      assert.equal(value(samples, 'hra_rate_limit_rejections_total', { scope: 'key' }), 1);
      assert.equal(value(samples, 'hra_http_requests_total', { route: '/api/sample', method: 'GET', status_class: '4xx' }), 2);
    } finally {
      await gateway.close();
    }
  });
});

describe('storage faults', () => {
  let server: Server;
  let url: string;
  let metrics: GatewayMetrics;
  let keyStoreDown = false;
  before(async () => {
    const failingLimiter: RateLimiter = {
      scheme: 'redis',
      consumeKey: () => Promise.reject(new RateLimitStorageError('redis is down')),
      consumePublic: () => Promise.reject(new RateLimitStorageError('redis is down')),
      close: () => Promise.resolve(),
    };
    const snapshots = new SnapshotHolder(openSnapshot(buildTestSnapshot()));
    metrics = createGatewayMetrics({ revision: () => snapshots.current.revision, processMetrics: false });
    const listener = createRequestListener({
      snapshots,
      lookupKey: () => {
        if (keyStoreDown) throw new KeyStoreUnavailableError('key store unreadable');
        return { kind: 'malformed' };
      },
      limiter: failingLimiter,
      now: Date.now,
      infrastructure: { sharedRateLimitStorage: true, rateLimitStorageScheme: 'redis', trustedOriginProxyConfigured: false },
      trustProxy: false,
      cursorKeys: new CursorKeyring(Buffer.from('test-secret-for-metrics-00000001')),
      log: createGatewayLogger({ level: 'silent' }),
      metrics,
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('are counted per store, whether the request failed closed or public data flowed', async () => {
    assert.equal((await fetch(`${url}/api/sample`)).status, 200, 'public data keeps flowing');
    assert.equal((await fetch(`${url}/api/cities`, { headers: { 'X-Api-Key': 'hra_c_x' } })).status, 503, 'a refusal is metered per address, which fails closed');
    keyStoreDown = true;
    assert.equal((await fetch(`${url}/api/cities`, { headers: { 'X-Api-Key': 'hra_c_x' } })).status, 503);
    const samples = parseSamples(await metrics.registry.metrics());
    assert.equal(value(samples, 'hra_storage_faults_total', { storage: 'rate_limit' }), 2);
    assert.equal(value(samples, 'hra_storage_faults_total', { storage: 'key_store' }), 1);
    assert.equal(value(samples, 'hra_http_requests_total', { route: '/api/cities', method: 'GET', status_class: '5xx' }), 2);
  });
});

describe('createGatewayMetrics', () => {
  it('reads the revision at scrape time, so a swap shows the new revision alone', async () => {
    let revision = 'gm1-aaaa';
    const metrics = createGatewayMetrics({ revision: () => revision, processMetrics: false });
    const revisions = async () => parseSamples(await metrics.registry.metrics()).filter((sample) => sample.name === 'hra_dataset_revision_info').map((sample) => `${sample.labels.revision}=${sample.value}`);
    assert.deepEqual(await revisions(), ['gm1-aaaa=1']);
    revision = 'gm1-bbbb';
    assert.deepEqual(await revisions(), ['gm1-bbbb=1']);
  });

  it('uses a registry of its own: two apps never share or collide', async () => {
    const first = createGatewayMetrics({ revision: () => 'a', processMetrics: false });
    const second = createGatewayMetrics({ revision: () => 'b', processMetrics: false });
    first.observeRequest({ route: '/api/sample', method: 'GET', status: 200, seconds: 0.001 });
    assert.match(await first.registry.metrics(), /hra_http_requests_total\{route="\/api\/sample",method="GET",status_class="2xx"\} 1/);
    assert.doesNotMatch(await second.registry.metrics(), /route="\/api\/sample"/);
  });
});
