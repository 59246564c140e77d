/**
 * sendRequest's page read against a real loopback server: a body over its cap is not buffered to the cap
 * (refused from its first bytes when its length is declared, cut to them when not), and a page read
 * waits for room in the run's byte budget before it reads.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { createByteBudget } from '../../../build/links/create-byte-budget.ts';
import { sendRequest } from '../../../build/links/send-request.ts';

const MIB = 1024 * 1024;
const OVER_HTML_CAP = 6 * MIB;

describe('sendRequest, page reads', () => {
  let server: Server;
  let origin: string;
  const dispatcher = new Agent();
  before(async () => {
    server = createServer((request, response) => {
      const declared = request.url === '/declared';
      const size = request.url === '/small' ? 1000 : OVER_HTML_CAP;
      response.writeHead(200, { 'content-type': 'text/html', ...(declared || request.url === '/small' ? { 'content-length': String(size) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let count = 0;
      const pump = () => {
        while (count < size) {
          const part = chunk.subarray(0, Math.min(chunk.length, size - count));
          count += part.length;
          if (!response.write(part)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.once('close', () => (count = size));
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await dispatcher.close();
    server.close();
  });

  const get = (path: string, pageBudget = createByteBudget(64 * MIB)) => sendRequest({
    dispatcher, viaProxy: false, url: `${origin}${path}`, method: 'GET', headers: {}, timeoutMs: 10_000, read: 'page', bodyCap: 1024 * 1024, pageBudget,
  });

  it('refuses a body whose Content-Length is over its cap from its first bytes, holding only those', async () => {
    const budget = createByteBudget(64 * MIB);
    const { page } = await get('/declared', budget);
    assert.ok(page?.kind === 'read');
    assert.equal(page.complete, false);
    assert.ok(page.bytes.byteLength <= 1024, `kept ${page.bytes.byteLength} bytes`);
    assert.equal(budget.held(), page.bytes.byteLength);
  });

  it('stops a body without a length at the cap and keeps only its first bytes held', async () => {
    const budget = createByteBudget(64 * MIB);
    const { page } = await get('/chunked', budget);
    assert.ok(page?.kind === 'read');
    assert.equal(page.complete, false);
    assert.ok(page.bytes.byteLength <= 1024, `kept ${page.bytes.byteLength} bytes`);
    assert.equal(budget.held(), page.bytes.byteLength);
  });

  it('waits for room in the budget before reading a body', async () => {
    const budget = createByteBudget(4 * MIB);
    await budget.acquire(4 * MIB);
    let done = false;
    const pending = get('/small', budget).then((answer) => {
      done = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(done, false, 'the body was read while the budget was full');
    budget.release(4 * MIB);
    const { page } = await pending;
    assert.ok(page?.kind === 'read' && page.complete && page.bytes.byteLength === 1000);
    assert.equal(budget.held(), 1000);
  });
});

describe('createByteBudget', () => {
  it('lets a small request past a large one that does not fit, and one larger than the whole budget through alone', async () => {
    const budget = createByteBudget(10);
    const order: string[] = [];
    await budget.acquire(8);
    const big = budget.acquire(30).then(() => order.push('big'));
    const small = budget.acquire(1).then(() => order.push('small'));
    await small;
    assert.deepEqual(order, ['small']);
    budget.release(9);
    await big;
    assert.deepEqual(order, ['small', 'big']);
    assert.equal(budget.held(), 30);
  });

  it('gives up a wait when its signal aborts, holding nothing', async () => {
    const budget = createByteBudget(10);
    await budget.acquire(10);
    const controller = new AbortController();
    const waiting = budget.acquire(5, controller.signal);
    controller.abort(new Error('deadline'));
    await assert.rejects(waiting, /deadline/);
    budget.release(10);
    assert.equal(budget.held(), 0);
  });
});
