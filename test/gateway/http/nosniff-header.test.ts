/**
 * `X-Content-Type-Options: nosniff` on every response (issue 24 item 3): every route of the table, GET and
 * HEAD, with each kind of key, its 304s, errors before and after a route is chosen, on the fast path and
 * through Koa alone; the admin port's `/metrics`; and declared on every response of the served document.
 * (The HTTP server's own refusals are checked in test/gateway/hostile-input/http-layer-refusals.test.ts.)
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { examplePath } from '../../support/route-examples.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways, type KeyName } from '../../support/fast-and-koa-gateways.ts';
import { GENEROUS_LIMITS, startTestGateway } from '../../support/start-test-gateway.ts';

const NOW = Date.parse('2026-11-21T12:00:30.000Z');
const KEYS: readonly KeyName[] = ['commercial', 'trial', 'revoked', 'none'];

describe('X-Content-Type-Options: nosniff', () => {
  let gateways: FastAndKoaGateways;
  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: GENEROUS_LIMITS, now: () => NOW, cursorSecret: 'nosniff-header-cursor-secret-0000001' });
  });
  after(() => gateways.close());

  /** Asks both adapters; returns what each answered with its status, for the message. */
  async function assertNosniff(target: string, init: { method?: string; key?: KeyName; headers?: Record<string, string> } = {}): Promise<number[]> {
    const statuses: number[] = [];
    for (const [adapter, base] of [['fast path', gateways.fast.url], ['koa', gateways.koa.url]] as const) {
      const key = gateways.keyOf(init.key ?? 'none');
      const response = await fetch(`${base}${target}`, { method: init.method ?? 'GET', headers: { ...(key === undefined ? {} : { 'X-Api-Key': key }), ...init.headers } });
      await response.arrayBuffer();
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${adapter}: ${init.method ?? 'GET'} ${target} (${init.key ?? 'none'}) -> ${response.status}`);
      statuses.push(response.status);
    }
    return statuses;
  }

  it('on every route, GET and HEAD, whatever the key, success or refusal', async () => {
    const seen = new Set<number>();
    for (const route of ROUTE_TABLE) {
      for (const method of ['GET', 'HEAD']) {
        for (const key of KEYS) for (const status of await assertNosniff(examplePath(route, { withRequiredQuery: true }), { method, key })) seen.add(status);
      }
    }
    // The walk met successes and the refusals of each access step, not only one kind of answer.
    for (const status of [200, 401, 403]) assert.ok(seen.has(status), `the walk met a ${status}`);
  });

  it('on the 304s of every ETag route', async () => {
    for (const route of ROUTE_TABLE.filter((entry) => entry.caching === 'cacheable')) {
      const path = examplePath(route);
      const etag = (await fetch(`${gateways.fast.url}${path}`)).headers.get('etag') ?? '';
      assert.notEqual(etag, '', path);
      for (const method of ['GET', 'HEAD']) assert.deepEqual(await assertNosniff(path, { method, headers: { 'If-None-Match': etag } }), [304, 304], path);
    }
  });

  it('on errors answered before a route is chosen: 404, 405, 414, a malformed escape', async () => {
    assert.deepEqual(await assertNosniff('/no/such/path'), [404, 404]);
    assert.deepEqual(await assertNosniff('/api/sample', { method: 'DELETE' }), [405, 405]);
    assert.deepEqual(await assertNosniff(`/api/programs/${'a'.repeat(9_000)}`), [414, 414]);
    assert.deepEqual(await assertNosniff('/api/programs/alpha?type=%ZZ', { key: 'commercial' }), [400, 400]);
  });

  it('is declared, required, on every response of every operation of the served document', async () => {
    const document = await (await fetch(`${gateways.fast.url}/openapi.json`)).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }> }>>;
      components: { responses: Record<string, { headers?: Record<string, unknown> }>; headers: Record<string, { required?: boolean; schema?: unknown }> };
    };
    assert.deepEqual(document.components.headers['X-Content-Type-Options']?.schema, { const: 'nosniff' });
    assert.equal(document.components.headers['X-Content-Type-Options']?.required, true);
    let responses = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, declared] of Object.entries(operation.responses)) {
          const response = declared.$ref === undefined ? declared : document.components.responses[declared.$ref.split('/').at(-1) ?? ''];
          assert.deepEqual(response?.headers?.['X-Content-Type-Options'], { $ref: '#/components/headers/X-Content-Type-Options' }, `${method} ${path} ${status}`);
          responses += 1;
        }
      }
    }
    assert.ok(responses > ROUTE_TABLE.length * 3, `${responses} responses checked`);
  });
});

describe('the metrics port sends nosniff too', () => {
  it('on /metrics and on its 404', async () => {
    const gateway = await startTestGateway({ flags: { metricsPort: '0' } });
    try {
      const metricsUrl = gateway.gateway.metricsUrl;
      assert.ok(metricsUrl !== undefined, 'the metrics port is open');
      for (const [path, status] of [['/metrics', 200], ['/elsewhere', 404]] as const) {
        const response = await fetch(`${metricsUrl}${path}`);
        await response.arrayBuffer();
        assert.equal(response.status, status, path);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      }
    } finally {
      await gateway.close();
    }
  });
});
