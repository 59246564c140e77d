/**
 * The fast path and Koa send the same compressed answers. A body's compressed form is stored in the
 * background after its first request in a coding, so a single ask can find it stored on one gateway and
 * not yet on the other; canonical-urls.test.ts therefore asks for identity. Here, for every route the fast
 * path serves, each gateway is asked until its answer carries the stored form (`Content-Encoding`, within
 * a bound), the two are given the same number of requests (so their rate-limit counts agree), and then
 * one more answer of each is compared: status, every header but Date, and the raw bytes on the wire; the
 * fast path's log line shows it sent that answer itself.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressesSuccess } from '../../../gateway/encoding/compresses-success.ts';
import { MIN_COMPRESSED_BODY_BYTES } from '../../../gateway/encoding/encoded-bodies.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways } from '../../support/fast-and-koa-gateways.ts';
import { examplePath } from '../../support/route-examples.ts';
import { GENEROUS_LIMITS } from '../../support/start-test-gateway.ts';

// Frozen, so both gateways place the same rate-limit windows and their headers compare exactly.
const NOW = Date.parse('2026-11-21T12:00:30.000Z');

// Compressing a test body takes milliseconds; this bounds a gateway that never stores the form.
const MAX_ASKS = 200;
const ASK_PAUSE_MS = 10;

const CODINGS = ['br', 'gzip'] as const;

interface RawAnswer {
  status: number;
  /** Every header but Date, names lower-case, in the order node:http received them. */
  headers: [string, string][];
  /** The bytes as sent, not decoded. */
  body: Buffer;
}

/** One request over node:http, which neither asks for nor decodes any coding by itself. */
function ask(base: string, target: string, method: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path: target, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = (response.rawHeaders[i] as string).toLowerCase();
          if (name !== 'date') pairs.push([name, response.rawHeaders[i + 1] as string]);
        }
        resolve({ status: response.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const header = (answer: RawAnswer, name: string) => answer.headers.find(([key]) => key === name)?.[1];

function decoded(answer: RawAnswer): Buffer {
  const coding = header(answer, 'content-encoding');
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

const fastRoutes = ROUTE_TABLE.filter((route) => route.fastPath === true);

describe('compressed answers: fast path and Koa alike', () => {
  let gateways: FastAndKoaGateways;
  let sequence = 0;

  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: GENEROUS_LIMITS, now: () => NOW, cursorSecret: 'compressed-parity-cursor-secret-0001' });
  });
  after(() => gateways.close());

  it('walks routes the fast path serves', () => {
    assert.ok(fastRoutes.length >= 10, `only ${fastRoutes.length} fast-path routes`);
  });

  for (const route of fastRoutes) {
    const target = examplePath(route, { withRequiredQuery: true });
    // A route whose successes compress does so once its body reaches the size bound; others never vary.
    const compresses = compressesSuccess(route.access, route.caching);

    it(`${target}: the same stored compressed answer from both`, async () => {
      for (const coding of CODINGS) {
        for (const method of ['GET', 'HEAD']) {
          const where = `${method} ${target} (Accept-Encoding: ${coding})`;
          const headers = (): Record<string, string> => ({
            'Accept-Encoding': coding,
            'X-Api-Key': gateways.keyOf('commercial') ?? '',
            'X-Request-ID': `parity-${String(sequence++).padStart(6, '0')}`,
          });
          // The identity answer, from both (each gateway gets every request the other gets).
          const plain = { ...headers(), 'Accept-Encoding': 'identity' };
          const identity = await ask(gateways.fast.url, target, 'GET', plain);
          const koaIdentity = await ask(gateways.koa.url, target, 'GET', plain);
          assert.equal(identity.status, koaIdentity.status, `${where}: identity status differs`);
          assert.ok(identity.body.equals(koaIdentity.body), `${where}: identity bytes differ`);
          // Successes compress (the test corpus has no body for two report artifacts: both answer 503).
          const expectCoding = identity.status === 200 && compresses && identity.body.length >= MIN_COMPRESSED_BODY_BYTES;

          // Ask each until its answer carries the stored form (or, for a body that never compresses, once).
          const asked = { fast: 0, koa: 0 };
          for (const [name, base] of [['fast', gateways.fast.url], ['koa', gateways.koa.url]] as const) {
            for (;;) {
              const answer = await ask(base, target, method, headers());
              asked[name]++;
              if (!expectCoding || header(answer, 'content-encoding') === coding) break;
              assert.ok(asked[name] < MAX_ASKS, `${where}: ${name} never sent the stored ${coding} form`);
              await new Promise((resolve) => setTimeout(resolve, ASK_PAUSE_MS));
            }
          }
          // As many requests on each, so both report the same rate-limit remaining count.
          for (; asked.fast < asked.koa; asked.fast++) await ask(gateways.fast.url, target, method, headers());
          for (; asked.koa < asked.fast; asked.koa++) await ask(gateways.koa.url, target, method, headers());

          const sent = headers();
          const [fast, koa] = [await ask(gateways.fast.url, target, method, sent), await ask(gateways.koa.url, target, method, sent)];
          assert.equal(fast.status, identity.status, where);
          assert.equal(koa.status, fast.status, `${where}: status differs`);
          assert.equal(header(fast, 'content-encoding'), expectCoding ? coding : undefined, `${where}: fast path coding`);
          assert.deepEqual(fast.headers, koa.headers, `${where}: headers differ`);
          assert.ok(fast.body.equals(koa.body), `${where}: bytes differ (${fast.body.length} and ${koa.body.length})`);
          if (method === 'GET') assert.ok(decoded(fast).equals(identity.body), `${where}: does not decode to the identity body`);
          // Else the comparison proves nothing: the fast path must have sent the success it was compared on.
          const line = gateways.fastLog.requests().find((logged) => logged.requestId === sent['X-Request-ID']);
          if (fast.status === 200) assert.equal(line?.fastPath, true, `${where}: answered by Koa behind the fast path`);
        }
      }
    });
  }
});
