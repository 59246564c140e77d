/**
 * readPageBody: a compressed page must end cleanly to be judged (issue 31 item 10), through a stream and
 * through a real loopback server whose Content-Length covers the cut-short bytes, so HTTP says complete.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { readPageBody } from '../../../build/links/read-page-body.ts';
import { sendRequest } from '../../../build/links/send-request.ts';

const PAGE = Buffer.from(`<!doctype html><title>Roof grant</title><p>Up to $10,000 for roofs.</p>${'<p>Apply at City Hall.</p>'.repeat(4000)}`);
const CODINGS = [['gzip', gzipSync], ['br', brotliCompressSync], ['deflate', deflateSync]] as const;

describe('readPageBody', () => {
  for (const [coding, encode] of CODINGS) {
    it(`reads a whole ${coding} body`, async () => {
      const result = await readPageBody(Readable.from([encode(PAGE)]), coding, 1 << 20);
      assert.equal(result.kind, 'read');
      assert.ok(result.kind === 'read' && result.complete && Buffer.from(result.bytes).equals(PAGE));
    });

    for (const [what, cut] of [['without its last 4 bytes', (n: number) => n - 4], ['cut in half', (n: number) => n >> 1]] as const) {
      it(`a ${coding} body ${what} is broken, not a page`, async () => {
        const bytes = encode(PAGE);
        const result = await readPageBody(Readable.from([bytes.subarray(0, cut(bytes.length))]), coding, 1 << 20);
        assert.equal(result.kind, 'broken', JSON.stringify(result).slice(0, 200));
        assert.match((result as { reason: string }).reason, new RegExp(`^the ${coding} coding does not end cleanly after \\d+ decoded bytes \\(unexpected end of file\\)$`));
      });
    }
  }

  it('a body that breaks off in transfer says so', async () => {
    const broken = new Readable({
      read() {
        this.push(gzipSync(PAGE).subarray(0, 100));
        this.destroy(new Error('socket hang up'));
      },
    });
    const result = await readPageBody(broken, 'gzip', 1 << 20);
    assert.deepEqual(result.kind === 'broken' && result.reason.replace(/\d+/, 'N'), 'the body broke off after N bytes (socket hang up)');
  });
});

describe('sendRequest, a page whose compression is cut short but whose Content-Length is intact', () => {
  let server: Server;
  let origin = '';
  const agent = new Agent();
  before(async () => {
    server = createServer((request, response) => {
      const coding = request.url!.slice(1);
      const encode = CODINGS.find(([name]) => name === coding)![1];
      const whole = encode(PAGE);
      const body = whole.subarray(0, whole.length - 4);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': coding, 'content-length': String(body.length) });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await agent.close();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const [coding] of CODINGS) {
    it(`${coding}: the page is broken, with the reason`, async () => {
      const sent = await sendRequest({ dispatcher: agent, viaProxy: false, url: `${origin}/${coding}`, method: 'GET', headers: {}, timeoutMs: 5000, read: 'page', bodyCap: 1024 });
      assert.equal(sent.status, 200);
      assert.equal(sent.page?.kind, 'broken', JSON.stringify(sent.page).slice(0, 200));
      assert.match((sent.page as { reason: string }).reason, new RegExp(`^the ${coding} coding does not end cleanly after \\d+ decoded bytes`));
    });
  }

  it('the link rules still read the prefix of the same body leniently', async () => {
    const sent = await sendRequest({ dispatcher: agent, viaProxy: false, url: `${origin}/gzip`, method: 'GET', headers: {}, timeoutMs: 5000, read: 'prefix', bodyCap: 1024 });
    assert.match(sent.body ?? '', /<title>Roof grant<\/title>/);
  });
});
