/**
 * What Node's HTTP parser refuses before Koa runs (malformed requests, unknown methods, oversized request
 * lines and headers, timeouts, CONNECT) still gets a JSON error with a `code`, an `X-Request-ID`,
 * `X-API-Version` and `X-Content-Type-Options: nosniff`; the server's limits are the documented ones.
 */
import * as assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../../build/contract/api-version.ts';
import { hardenServer, MAX_REQUESTS_PER_SOCKET, SERVER_LIMITS } from '../../../gateway/http/harden-server.ts';
import { MAX_HEADER_BLOCK_BYTES } from '../../../gateway/http/refuse-large-header-blocks.ts';
import { SAFE_REQUEST_ID } from '../../../gateway/http/request-id.ts';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { keepAliveAgent } from './hostile-support.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

/** Sends `data` on a fresh connection and reads until the server closes it. */
function rawExchange(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}

interface ParsedResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

function parseResponse(text: string): ParsedResponse {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function assertJsonError(response: ParsedResponse, status: number, code: string, options: { head?: boolean } = {}): void {
  assert.equal(response.status, status, response.body);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.match(response.headers.get('x-request-id') ?? '', SAFE_REQUEST_ID);
  assert.equal(response.headers.get('x-api-version'), API_VERSION);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  if (options.head) {
    assert.equal(response.body, '', 'a HEAD response has no body');
    return;
  }
  const body = JSON.parse(response.body) as ApiErrorBody;
  assert.equal(typeof body.error, 'string');
  assert.equal(body.code, code);
}

const long = (length: number) => 'a'.repeat(length);

const CASES: ReadonlyArray<{ name: string; send: string; status: number; code: string; head?: boolean; allow?: boolean }> = [
  { name: 'an unknown method token', send: 'FROB /api/sample HTTP/1.1\r\nHost: x\r\n\r\n', status: 405, code: 'METHOD_NOT_ALLOWED', allow: true },
  { name: 'a lowercase method', send: 'get /api/sample HTTP/1.1\r\nHost: x\r\n\r\n', status: 405, code: 'METHOD_NOT_ALLOWED', allow: true },
  { name: 'CONNECT', send: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', status: 405, code: 'METHOD_NOT_ALLOWED', allow: true },
  { name: 'a space in a header name', send: 'GET /api/sample HTTP/1.1\r\nHo st: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'a raw control character in the path', send: 'GET /api/\x01 HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'raw UTF-8 in the path', send: 'GET /api/programs/caf\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'a NUL in a header value', send: 'GET /api/sample HTTP/1.1\r\nHost: x\r\nX-Api-Key: a\x00b\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'Content-Length with Transfer-Encoding (smuggling)', send: 'GET /api/sample HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'an HTTP/1.1 request without Host', send: 'GET /api/sample HTTP/1.1\r\nConnection: close\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
  { name: 'a malformed HEAD (no body in the answer)', send: 'HEAD /\x7f HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST', head: true },
  { name: 'a request target over 16 KiB', send: `GET /api/programs/${long(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 414, code: 'URI_TOO_LONG' },
  { name: 'a request target over 8 KiB', send: `GET /api/programs/${long(9_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, status: 414, code: 'URI_TOO_LONG' },
  { name: 'headers over 16 KiB', send: `GET /api/sample HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${long(20_000)}\r\n\r\n`, status: 431, code: 'HEADERS_TOO_LARGE' },
  { name: 'many headers over 16 KiB', send: `GET /api/sample HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 800 }, (_, index) => `X-H${index}: ${long(20)}\r\n`).join('')}\r\n`, status: 431, code: 'HEADERS_TOO_LARGE' },
  // About 23 KB that Node's maxHeaderSize passed: it counts neither the `: ` nor the CRLF of a line.
  { name: '2,000 small headers (22,946 bytes)', send: smallHeaders(2_000), status: 431, code: 'HEADERS_TOO_LARGE' },
  { name: 'a HEAD with 2,000 small headers (no body in the answer)', send: smallHeaders(2_000).replace('GET', 'HEAD'), status: 431, code: 'HEADERS_TOO_LARGE', head: true },
];

/** `GET /api/sample` with `count` headers `X-H<n>: v`: 22,946 bytes for 2,000. */
function smallHeaders(count: number): string {
  return `GET /api/sample HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Array.from({ length: count }, (_, index) => `X-H${index}: v\r\n`).join('')}\r\n`;
}

/** A request whose request line and headers are exactly `bytes` long, padded in one header's value. */
function headBlockOf(bytes: number, path = '/api/sample'): string {
  const bare = `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: \r\n\r\n`;
  return bare.replace('X-Pad: ', `X-Pad: ${long(bytes - bare.length)}`);
}

describe('HTTP-layer refusals', () => {
  let gateway: TestGateway;
  let port: number;
  before(async () => {
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS });
    port = Number(new URL(gateway.url).port);
  });
  after(async () => {
    await gateway.close();
  });

  for (const testCase of CASES) {
    it(`answers ${testCase.name} with a JSON ${testCase.status} ${testCase.code}`, async () => {
      const response = parseResponse(await rawExchange(port, Buffer.from(testCase.send, 'latin1')));
      assertJsonError(response, testCase.status, testCase.code, { head: testCase.head });
      if (testCase.allow) assert.equal(response.headers.get('allow'), 'GET, HEAD');
    });
  }

  it(`holds the 16 KiB as sent: ${MAX_HEADER_BLOCK_BYTES} bytes of request line and headers are served, one more is a 431`, async () => {
    assert.equal(smallHeaders(2_000).length, 22_946);
    assert.equal(Buffer.byteLength(headBlockOf(MAX_HEADER_BLOCK_BYTES)), MAX_HEADER_BLOCK_BYTES);
    assert.equal(parseResponse(await rawExchange(port, headBlockOf(MAX_HEADER_BLOCK_BYTES))).status, 200);
    assertJsonError(parseResponse(await rawExchange(port, headBlockOf(MAX_HEADER_BLOCK_BYTES + 1))), 431, 'HEADERS_TOO_LARGE');
    // Many short lines at the bound: each line's `: ` and CRLF count.
    const lines = (bytes: number) => {
      const base = 'GET /api/sample HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
      const line = 'X-Ab: cd\r\n';
      const count = Math.floor((bytes - base.length) / line.length);
      return `${base.slice(0, -2)}${line.repeat(count)}${'X-Z: '.padEnd(bytes - base.length - count * line.length - 2, 'z')}\r\n\r\n`;
    };
    assert.equal(lines(MAX_HEADER_BLOCK_BYTES).length, MAX_HEADER_BLOCK_BYTES);
    assert.equal(parseResponse(await rawExchange(port, lines(MAX_HEADER_BLOCK_BYTES))).status, 200);
    assertJsonError(parseResponse(await rawExchange(port, lines(MAX_HEADER_BLOCK_BYTES + 1))), 431, 'HEADERS_TOO_LARGE');
  });

  it('drops no header: an X-Api-Key after 2,000 headers still counts', async () => {
    const head = `GET /api/cities HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${'a: \r\n'.repeat(2_000)}X-Api-Key: ${gateway.keys.commercial}\r\n\r\n`;
    const response = parseResponse(await rawExchange(port, head));
    assert.equal(response.status, 200, response.body.slice(0, 200));
  });

  it('serves HTTP/1.0 without Host, and an unsupported Expect as if it were absent', async () => {
    assert.equal(parseResponse(await rawExchange(port, 'GET /api/sample HTTP/1.0\r\n\r\n')).status, 200);
    assert.equal(parseResponse(await rawExchange(port, 'GET /api/sample HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n')).status, 200);
  });

  // RFC 9112 6.3: a request's body length is known only when chunked is its final (here: only) coding.
  for (const coding of ['xchunked', 'gzip', 'chunked, gzip', 'gzip, chunked', 'identity', 'chunked, chunked']) {
    for (const path of ['/api/sample', '/api/cities', '/api/cities/']) {
      it(`answers Transfer-Encoding: ${coding} on ${path} with 400 and closes, leaving a pipelined request unanswered`, async () => {
        const pipelined = `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${gateway.keys.commercial}\r\nTransfer-Encoding: ${coding}\r\n\r\n`
          + `GET /api/sample HTTP/1.1\r\nHost: x\r\n\r\n`;
        const text = await rawExchange(port, pipelined);
        assert.equal(text.match(/HTTP\/1\.1 \d{3} /g)?.length, 1, `one answer, then the connection closes: ${text.slice(0, 300)}`);
        const response = parseResponse(text);
        assertJsonError(response, 400, 'MALFORMED_REQUEST');
        assert.equal(response.headers.get('connection'), 'close');
      });
    }
  }

  it('serves a chunked request and the request pipelined behind it', async () => {
    const text = await rawExchange(port, 'GET /api/sample HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\nGET /api/sample HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.deepEqual(text.match(/HTTP\/1\.1 \d{3} /g), ['HTTP/1.1 200 ', 'HTTP/1.1 200 ']);
  });

  it('echoes a safe X-Request-ID on a 414 the app answers', async () => {
    const response = parseResponse(await rawExchange(port, `GET /${long(9_000)} HTTP/1.1\r\nHost: x\r\nX-Request-ID: long-url-0001\r\nConnection: close\r\n\r\n`));
    assertJsonError(response, 414, 'URI_TOO_LONG');
    assert.equal(response.headers.get('x-request-id'), 'long-url-0001');
  });

  it('sets the documented server limits (the header size is exercised by the 431 cases)', () => {
    const { server } = gateway.gateway;
    assert.equal(server.maxRequestsPerSocket, MAX_REQUESTS_PER_SOCKET);
    assert.equal(server.requestTimeout, SERVER_LIMITS.requestTimeout);
    assert.equal(server.headersTimeout, SERVER_LIMITS.headersTimeout);
    assert.equal(server.keepAliveTimeout, SERVER_LIMITS.keepAliveTimeout);
  });

  it(`closes a keep-alive connection after ${MAX_REQUESTS_PER_SOCKET} requests, without a 5xx`, async () => {
    const agent = keepAliveAgent();
    try {
      const sockets = new Set<unknown>();
      let closedAt: number | undefined;
      for (let index = 1; index <= MAX_REQUESTS_PER_SOCKET + 5; index += 1) {
        const response = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const outgoing = request(`${gateway.url}/api/data/readiness`, { agent }, (incoming) => {
            sockets.add(incoming.socket);
            incoming.resume();
            incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, connection: incoming.headers.connection }));
          });
          outgoing.on('error', reject);
          outgoing.end();
        });
        assert.equal(response.status, 200, `request ${index}`);
        if (response.connection === 'close' && closedAt === undefined) closedAt = index;
      }
      assert.equal(closedAt, MAX_REQUESTS_PER_SOCKET);
      assert.equal(sockets.size, 2, 'a second connection after the limit');
    } finally {
      agent.destroy();
    }
  });
});

/** Opens a connection, sends `data`, and resolves with what came back and when the server closed it. */
function timedExchange(port: number, data: string, trickle?: string): Promise<{ text: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(data);
      // A slowloris: one more header byte every second, so the connection is never idle.
      if (trickle !== undefined) timer = setInterval(() => socket.writable && socket.write(trickle), 1_000);
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text: received, seconds: (performance.now() - started) / 1000 });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A trickled write racing the server's close; the answer has arrived by then.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
  });
}

describe('header timeout of the real gateway', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS });
  });
  after(async () => {
    await gateway.close();
  });

  it(`answers headers still incomplete after ${SERVER_LIMITS.headersTimeout / 1000} s with a JSON 408 within 10-12.5 s, trickled or not`, { timeout: 30_000 }, async () => {
    const port = Number(new URL(gateway.url).port);
    const [stalled, trickled] = await Promise.all([
      timedExchange(port, 'GET /api/sample HTTP/1.1\r\nHost: x\r\nX-Slow: '),
      timedExchange(port, 'GET /api/sample HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'a'),
    ]);
    for (const [name, outcome] of [['stalled', stalled], ['trickled', trickled]] as const) {
      assertJsonError(parseResponse(outcome.text), 408, 'REQUEST_TIMEOUT');
      assert.ok(outcome.seconds >= 10 && outcome.seconds <= 12.5, `${name}: the 408 came after ${outcome.seconds.toFixed(2)} s`);
    }
  });
});

describe('request timeout', () => {
  let server: Server;
  let port: number;
  before(async () => {
    // The gateway's handler and limits with the clock shortened, so the timeout fires within the test.
    server = createServer({ ...SERVER_LIMITS, headersTimeout: 200, requestTimeout: 300, connectionsCheckingInterval: 50 }, (incoming, response) => {
      incoming.resume();
      incoming.on('end', () => response.end('{}'));
    });
    hardenServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers headers that never finish with a JSON 408 REQUEST_TIMEOUT', async () => {
    assertJsonError(parseResponse(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ')), 408, 'REQUEST_TIMEOUT');
  });

  it('answers a body that never finishes with a JSON 408 REQUEST_TIMEOUT', async () => {
    assertJsonError(parseResponse(await rawExchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{')), 408, 'REQUEST_TIMEOUT');
  });
});

