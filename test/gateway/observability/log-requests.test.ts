/** Request logs (issue 7): one JSON line per request with route template, status, duration, key id and tier; never the key. */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRequestListener } from '../../../gateway/app.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { createGatewayLogger } from '../../../gateway/observability/gateway-logger.ts';
import { openSnapshot } from '../../../gateway/snapshot/open-snapshot.ts';
import { SnapshotHolder } from '../../../gateway/snapshot/snapshot-holder.ts';
import { buildTestSnapshot, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { captureLogger, type CapturedLog } from './capture-logger.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';

const LEVEL = { info: 30, error: 50 } as const;

describe('logRequests', () => {
  let gateway: TestGateway;
  let captured: CapturedLog;
  before(async () => {
    captured = captureLogger();
    gateway = await startTestGateway({ log: captured.log });
  });
  after(async () => {
    await gateway.close();
  });

  const lastRequestLine = () => {
    const line = captured.requests().at(-1);
    assert.ok(line, 'a request line was written');
    return line;
  };

  const cases = [
    { name: 'a licensed hit', path: '/api/programs/alpha', key: 'commercial', method: 'GET', route: '/api/programs/:city', status: 200, tier: 'commercial', fastPath: true },
    { name: 'a detail record by a trial key', path: '/api/programs/alpha/a-roof', key: 'trial', method: 'GET', route: '/api/programs/:city/:programId', status: 200, tier: 'trial', fastPath: true },
    { name: 'a HEAD', path: '/api/cities', key: 'nonprofit', method: 'HEAD', route: '/api/cities', status: 200, tier: 'nonprofit', fastPath: true },
    { name: 'a public route', path: '/api/sample', key: undefined, method: 'GET', route: '/api/sample', status: 200, tier: undefined, fastPath: true },
    // A percent-encoded slug is left to Koa's router: a 200 whose line Koa writes.
    { name: 'a success only Koa matches', path: '/api/programs/al%70ha', key: 'nonprofit', method: 'GET', route: '/api/programs/:city', status: 200, tier: 'nonprofit', fastPath: false },
    { name: 'a refused key', path: '/api/programs/alpha', key: 'revoked', method: 'GET', route: '/api/programs/:city', status: 403, tier: undefined, fastPath: false },
    { name: 'a bogus key', path: '/api/cities', key: 'bogus', method: 'GET', route: '/api/cities', status: 401, tier: undefined, fastPath: false },
    { name: 'an unknown path', path: '/no/such/thing?secret=1', key: 'commercial', method: 'GET', route: 'unmatched', status: 404, tier: undefined, fastPath: false },
    { name: 'a refused method', path: '/api/cities', key: 'commercial', method: 'DELETE', route: 'unmatched', status: 405, tier: undefined, fastPath: false },
  ] as const;

  for (const testCase of cases) {
    it(`logs ${testCase.name}: ${testCase.method} ${testCase.route} -> ${testCase.status}`, async () => {
      const before = captured.requests().length;
      const key = testCase.key === undefined ? undefined : testCase.key === 'bogus' ? 'hra_c_0000000000000000000000000000000000000' : gateway.keys[testCase.key];
      const response = await gateway.get(testCase.path, { key, method: testCase.method, headers: { 'X-Request-ID': 'log-test-0001' } });
      await response.arrayBuffer();
      assert.equal(response.status, testCase.status);
      assert.equal(captured.requests().length, before + 1, 'exactly one line per request');
      const line = lastRequestLine();
      assert.equal(line.level, LEVEL.info);
      assert.equal(line.requestId, 'log-test-0001');
      assert.equal(line.method, testCase.method);
      assert.equal(line.route, testCase.route);
      assert.equal(line.status, testCase.status);
      assert.equal(typeof line.durationMs, 'number');
      assert.ok((line.durationMs as number) >= 0);
      if (testCase.tier === undefined) {
        assert.equal(line.keyId, undefined);
        assert.equal(line.tier, undefined);
      } else {
        assert.equal(line.keyId, gateway.keyIds[testCase.key as keyof typeof gateway.keyIds]);
        assert.equal(line.tier, testCase.tier);
      }
      assert.deepEqual(Object.keys(line).filter((name) => !['level', 'time', 'pid', 'msg'].includes(name)).sort(),
        ['durationMs', 'method', 'requestId', 'route', 'status', ...(testCase.tier === undefined ? [] : ['keyId', 'tier']), ...(testCase.fastPath ? ['fastPath'] : [])].sort());
      // The fast-path routes are answered ahead of Koa; the line says so, and is otherwise the same.
      assert.equal(line.fastPath, testCase.fastPath ? true : undefined);
    });
  }

  it('never adopts a key offered as X-Request-ID, on the fast path or in Koa', async () => {
    // A fast-path 200, a Koa 200 (an encoded slug) and a Koa refusal, each offered the caller's own key as its id.
    for (const path of ['/api/cities', '/api/programs/al%70ha', '/api/programs/zeta']) {
      const before = captured.requests().length;
      const response = await gateway.get(path, { key: gateway.keys.nonprofit, headers: { 'X-Request-ID': gateway.keys.nonprofit } });
      await response.arrayBuffer();
      const echoed = response.headers.get('x-request-id') ?? '';
      assert.notEqual(echoed, gateway.keys.nonprofit, path);
      assert.match(echoed, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `${path}: a generated id`);
      assert.equal(captured.requests().length, before + 1);
      assert.equal(lastRequestLine().requestId, echoed, path);
    }
    assert.equal(captured.text().includes(gateway.keys.nonprofit), false, 'the key reached the log');
  });

  it('never adopts an X-Request-ID holding a key shape anywhere, in any case', async () => {
    const key = gateway.keys.commercial;
    // A key glued behind a spec 8 prefix, a near-miss after another letter, a shouted key in the middle.
    const offered = [`hra-c-${key}`, 'xhra_c_foo', `req.${key.toUpperCase()}.1`, `trace-Hra_N_${key.slice(6)}`];
    for (const id of offered) {
      for (const path of ['/api/cities', '/api/cities/', '/api/programs/zeta']) {
        const response = await gateway.get(path, { key, headers: { 'X-Request-ID': id } });
        await response.arrayBuffer();
        const echoed = response.headers.get('x-request-id') ?? '';
        assert.match(echoed, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `${path} ${id}: a generated id`);
        assert.equal(lastRequestLine().requestId, echoed, path);
      }
      assert.equal(captured.text().includes(id), false, `${id} reached the log`);
    }
    assert.equal(captured.text().toLowerCase().includes(key.slice(6).toLowerCase()), false, 'the key body reached the log');
  });

  it('never writes a key, a query string or a header value', () => {
    const text = captured.text();
    for (const key of Object.values(gateway.keys)) assert.equal(text.includes(key), false, 'a plaintext key in the log');
    assert.equal(text.includes('secret=1'), false);
    assert.equal(/x-api-key/i.test(text), false);
  });
});

describe('createGatewayLogger', () => {
  it('redacts X-Api-Key wherever request headers are logged', () => {
    const captured = captureLogger();
    captured.log.info({ headers: { 'x-api-key': 'hra_c_secret1' }, req: { headers: { 'x-api-key': 'hra_c_secret2', host: 'h' } }, request: { headers: { 'X-Api-Key': 'hra_c_secret3' } }, apiKey: 'hra_c_secret4' }, 'headers');
    const [line] = captured.lines();
    assert.ok(line);
    assert.equal(/hra_c_secret/.test(captured.text()), false);
    assert.deepEqual(line.req, { headers: { 'x-api-key': '[redacted]', host: 'h' } });
    assert.equal(line.apiKey, '[redacted]');
  });

  it('writes nothing when silent, and only what the level admits', () => {
    const silent = captureLogger('silent');
    silent.log.error('nothing');
    assert.equal(silent.text(), '');
    const warn = captureLogger('warn');
    warn.log.info('dropped');
    warn.log.warn('kept');
    assert.deepEqual(warn.lines().map((line) => line.msg), ['kept']);
  });

  it('writes to stderr by default, never stdout', () => {
    const log = createGatewayLogger({ level: 'info' });
    // The turn batcher hands lines to pino's SonicBoom destination, which exposes its file descriptor.
    const stream = (log as unknown as Record<symbol, { sink?: { fd?: number } }>)[Object.getOwnPropertySymbols(log).find((symbol) => symbol.description === 'pino.stream') as symbol];
    assert.equal(stream?.sink?.fd, 2);
  });
});

describe('unexpected errors', () => {
  let server: Server;
  let url: string;
  const captured = captureLogger();
  before(async () => {
    const listener = createRequestListener({
      snapshots: new SnapshotHolder(openSnapshot(buildTestSnapshot())),
      lookupKey: () => {
        throw new Error('key store exploded at /var/secret/path');
      },
      limiter: new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now }),
      now: Date.now,
      infrastructure: { sharedRateLimitStorage: false, rateLimitStorageScheme: 'memory', trustedOriginProxyConfigured: false },
      trustProxy: false,
      cursorKeys: new CursorKeyring(Buffer.from('test-secret-for-logging-00000001')),
      log: captured.log,
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('are logged through the same logger with the request id, and never shown to the client', async () => {
    const response = await fetch(`${url}/api/cities`, { headers: { 'X-Api-Key': 'hra_c_whatever', 'X-Request-ID': 'boom-request-01' } });
    const body = await response.text();
    assert.equal(response.status, 500);
    assert.equal(body.includes('exploded'), false);
    const failure = captured.lines().find((line) => line.msg === 'unexpected error');
    assert.ok(failure, 'the error was logged');
    assert.equal(failure.level, LEVEL.error);
    assert.equal(failure.requestId, 'boom-request-01');
    assert.match(String((failure.err as { message?: unknown }).message), /exploded/);
    assert.equal(captured.requests().at(-1)?.status, 500);
    assert.equal(captured.text().includes('hra_c_whatever'), false);
  });
});
