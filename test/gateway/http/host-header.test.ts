/**
 * RFC 9112 3.2: a request with two Host lines, an HTTP/1.1 request with none, and a Host that is no
 * `uri-host [ ":" port ]` are each a 400. Sent over raw sockets (node:http's client would merge or refuse
 * them) to the real gateway, once as served (the fast path ahead of Koa) and once through Koa alone.
 */
import * as assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../../../build/contract/api-version.ts';
import { SAFE_REQUEST_ID } from '../../../gateway/http/request-id.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways } from '../../support/fast-and-koa-gateways.ts';
import { GENEROUS_LIMITS } from '../../support/start-test-gateway.ts';

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Writes `head` on a fresh connection and reads until the server closes it (or 5 s pass). */
function exchange(url: string, head: string): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no close within 5 s after: ${text.slice(0, 200)}`)));
    socket.on('close', () => {
      const [headText = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

// Each case asks for the connection to stay open: the refusal must close it, or the read times out.
const REFUSED = [
  { name: 'two Host lines', head: 'GET /api/sample HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\nX-Request-ID: host-case-0001\r\n\r\n' },
  { name: 'two Host lines with the same value', head: 'GET /api/sample HTTP/1.1\r\nHost: a.test\r\nhost: a.test\r\nX-Request-ID: host-case-0002\r\n\r\n' },
  { name: 'two Host lines on HTTP/1.0', head: 'GET /api/sample HTTP/1.0\r\nConnection: keep-alive\r\nHost: a.test\r\nHOST: b.test\r\nX-Request-ID: host-case-0003\r\n\r\n' },
  { name: 'two Host lines on a licensed route', head: 'GET /api/programs/alpha HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\nX-Api-Key: KEY\r\nX-Request-ID: host-case-0004\r\n\r\n' },
  { name: 'no Host on HTTP/1.1', head: 'GET /api/sample HTTP/1.1\r\nX-Request-ID: host-case-0005\r\n\r\n' },
  { name: 'a Host with a space inside', head: 'GET /api/sample HTTP/1.1\r\nHost: a.test b.test\r\nX-Request-ID: host-case-0006\r\n\r\n' },
  { name: 'a Host with a path', head: 'GET /api/sample HTTP/1.1\r\nHost: a.test/evil\r\nX-Request-ID: host-case-0007\r\n\r\n' },
  { name: 'a Host with a non-numeric port', head: 'GET /api/sample HTTP/1.1\r\nHost: a.test:80x\r\nX-Request-ID: host-case-0008\r\n\r\n' },
] as const;

const SERVED = [
  { name: 'one Host', head: 'GET /api/sample HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n' },
  { name: 'one Host with a port', head: 'GET /api/sample HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n' },
  { name: 'an IPv6 Host', head: 'GET /api/sample HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n' },
  { name: 'an empty Host (RFC 9112 3.2 allows it)', head: 'GET /api/sample HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n' },
  { name: 'HTTP/1.0 without Host', head: 'GET /api/sample HTTP/1.0\r\n\r\n' },
] as const;

describe('Host header (RFC 9112 3.2)', () => {
  let gateways: FastAndKoaGateways;
  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: GENEROUS_LIMITS, now: Date.now, cursorSecret: 'host-header-test-secret' });
  });
  after(() => gateways.close());

  for (const adapter of ['fast path', 'Koa'] as const) {
    const urlOf = () => (adapter === 'fast path' ? gateways.fast.url : gateways.koa.url);

    for (const testCase of REFUSED) {
      it(`${adapter}: answers ${testCase.name} with a JSON 400 MALFORMED_REQUEST and closes the connection`, async () => {
        const answer = await exchange(urlOf(), testCase.head.replace('KEY', gateways.fast.keys.commercial));
        assert.equal(answer.status, 400, answer.body);
        assert.deepEqual(JSON.parse(answer.body), { error: JSON.parse(answer.body).error, code: 'MALFORMED_REQUEST' });
        assert.match(JSON.parse(answer.body).error, /host/i);
        assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(answer.headers.get('x-request-id'), /X-Request-ID: (\S+)/.exec(testCase.head)?.[1]);
        assert.match(answer.headers.get('x-request-id') ?? '', SAFE_REQUEST_ID);
        assert.equal(answer.headers.get('x-api-version'), API_VERSION);
        assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        assert.equal(answer.headers.get('connection'), 'close');
        assert.equal(answer.headers.has('x-dataset-revision'), false, 'errors omit X-Dataset-Revision (spec 7)');
        // Refused before any operation is chosen, so before metering: no window to state (the OpenAPI 400 says so).
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'vary']) assert.equal(answer.headers.has(name), false, name);
      });
    }

    for (const testCase of SERVED) {
      it(`${adapter}: serves ${testCase.name}`, async () => {
        const answer = await exchange(urlOf(), testCase.head);
        assert.equal(answer.status, 200, answer.body.slice(0, 200));
      });
    }
  }
});
