/**
 * captureExchange through sendRequest against a real loopback server, archived by the real writer: a page the
 * link rules read only in part archives the same payload however its bytes were chunked, so an unchanged page
 * becomes a revisit, and the verdict derived again from that payload is the live one.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { openArchivedResponses } from '../../../build/archive/open-archived-responses.ts';
import { rederiveLinkVerdict } from '../../../build/archive/rederive-link-verdict.ts';
import { captureExchange } from '../../../build/links/capture-exchange.ts';
import { createByteBudget } from '../../../build/links/create-byte-budget.ts';
import { classifyResponse } from '../../../build/links/classify-response.ts';
import { sendRequest } from '../../../build/links/send-request.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

// Seeded words, so the compressed codings stay long enough to arrive in many pieces.
let seed = 7;
const words = (count: number) => Array.from({ length: count }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31).toString(36)).join(' ');
// A soft 404 whose verdict rests on its h1, about 40 KB in, with 300 KB of page after it.
const PAGE = Buffer.from(
  `<!doctype html><html><head><title>City of Alpha</title></head><body><nav>${words(5000)}</nav>` +
  `<h1>404</h1 ><p>${words(40_000)}</p></body></html>`,
);
const CODED = { identity: PAGE, gzip: gzipSync(PAGE), br: brotliCompressSync(PAGE) } as const;
type Coding = keyof typeof CODED;

describe('captureExchange, a body read in part', () => {
  let server: Server;
  let origin: string;
  const dispatcher = new Agent();
  before(async () => {
    // `/<coding>/one`: the body in one write; `/<coding>/many`: in 997-byte writes 1 ms apart.
    server = createServer((request, response) => {
      const [, coding, mode] = (request.url ?? '').split('/') as [string, Coding, string];
      const body = CODED[coding];
      response.writeHead(200, { 'content-type': 'text/html', ...(coding === 'identity' ? {} : { 'content-encoding': coding }) });
      if (mode === 'one') return void response.end(body);
      let at = 0;
      const next = () => {
        if (response.destroyed) return;
        if (at >= body.length) return void response.end();
        response.write(body.subarray(at, at + 997), () => setTimeout(next, 1));
        at += 997;
      };
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await dispatcher.close();
    server.close();
  });

  const fetchCaptured = async (path: string) => {
    const url = `${origin}${path}`;
    const capture = captureExchange({ url, method: 'GET', headers: {}, now: () => Date.parse('2026-11-23T06:00:00Z') });
    const response = await sendRequest({ dispatcher, viaProxy: false, url, method: 'GET', headers: {}, timeoutMs: 10_000, read: 'prefix', bodyCap: 1024 * 1024, capture });
    const exchange = await capture.exchange();
    assert.ok(exchange !== undefined);
    // The archive names one URL for both chunkings, as one page fetched in two weeks.
    return { response, exchange: { ...exchange, targetUri: `http://agency.test/${path.split('/')[1]}` } };
  };

  it('counts the captured bytes in the page budget beside the page read, until the capture is released', async () => {
    const url = `${origin}/identity/one`;
    const budget = createByteBudget(48 * 1024 * 1024);
    const capture = captureExchange({ url, method: 'GET', headers: {}, now: () => Date.parse('2026-11-23T06:00:00Z') }, undefined, budget);
    const response = await sendRequest({ dispatcher, viaProxy: false, url, method: 'GET', headers: {}, timeoutMs: 10_000, read: 'page', bodyCap: 1024 * 1024, pageBudget: budget, capture });
    assert.equal(response.page?.kind, 'read');
    const pageBytes = response.page?.kind === 'read' ? response.page.bytes.byteLength : 0;
    assert.equal(pageBytes, PAGE.byteLength);
    // The decoded page (held until the quote checks let it go) and its archived copy, both in memory.
    assert.equal(budget.held(), pageBytes + PAGE.byteLength);
    const exchange = await capture.exchange();
    assert.equal(exchange?.response.payload.byteLength, PAGE.byteLength);
    capture.release();
    capture.release();
    assert.equal(budget.held(), pageBytes, 'released once, however often asked');
    budget.release(pageBytes);
    assert.equal(budget.held(), 0);
  });

  it('makes a reader wait while captured bytes fill the budget, and lets it read once they are released', async () => {
    const budget = createByteBudget(PAGE.byteLength + 1024);
    const first = captureExchange({ url: `${origin}/identity/one`, method: 'GET', headers: {}, now: () => 0 }, undefined, budget);
    await sendRequest({ dispatcher, viaProxy: false, url: `${origin}/identity/one`, method: 'GET', headers: {}, timeoutMs: 10_000, read: 'prefix', bodyCap: 1024 * 1024, capture: first });
    await first.exchange();
    assert.ok(budget.held() > 1024, `a prefix read still captured ${budget.held()} bytes`);
    let granted = false;
    const waiting = budget.acquire(PAGE.byteLength).then(() => void (granted = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(granted, false);
    first.release();
    await waiting;
    assert.equal(granted, true);
  });

  for (const coding of Object.keys(CODED) as Coding[]) {
    it(`archives the same ${coding} payload from one write and from many small ones, the second as a revisit`, async () => {
      const archiveDir = makeTempDir(`hra-capture-${coding}-`);
      const whole = await fetchCaptured(`/${coding}/one`);
      const pieces = await fetchCaptured(`/${coding}/many`);
      assert.equal(Buffer.compare(whole.exchange.response.payload, pieces.exchange.response.payload), 0);
      assert.equal(whole.exchange.response.truncated, 'length');
      assert.ok(whole.exchange.response.payload.byteLength < CODED[coding].byteLength);

      const writer = await openArchiveWriter({ archiveDir });
      const first = await writer.writeExchange(whole.exchange);
      const second = await writer.writeExchange(pieces.exchange);
      await writer.close();
      assert.equal(first.responseType, 'response');
      assert.equal(second.responseType, 'revisit');
      assert.equal(second.payloadSha256, first.payloadSha256);

      // The archived prefix holds the title and the h1 the live verdict read.
      const live = classifyResponse({ status: 200, headers: pieces.response.headers, body: pieces.response.body, citedUrl: pieces.exchange.targetUri, finalUrl: pieces.exchange.targetUri });
      assert.notEqual(live.outcome, 'ok');
      const archived = openArchivedResponses(archiveDir);
      try {
        const replayed = await rederiveLinkVerdict(await archived.read(second.responseRecordId), pieces.exchange.targetUri, 'prefix');
        assert.deepEqual(replayed, live);
      } finally {
        archived.close();
      }
    });
  }
});
