/**
 * The link-check dispatcher's outbound guard against real loopback servers: refused destinations never
 * open a connection, whether named by an IP literal, by a name that resolves to one (an injected
 * resolver stands in for DNS), or, through a proxy, by a literal the proxy would have reached.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createLinkDispatcher } from '../../../build/links/create-link-dispatcher.ts';
import type { ResolveHost } from '../../../build/links/guarded-lookup.ts';
import { RequestFailure } from '../../../build/links/request-failure.ts';
import { sendRequest } from '../../../build/links/send-request.ts';
import { startLinkFixture, type LinkFixture } from '../../../scripts/loopback/link-fixture-proxy.ts';


/** A resolver answering from a table, like a DNS server that answers what it likes. */
const resolver = (table: Record<string, string[]>): ResolveHost => async (hostname) => {
  const addresses = table[hostname];
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('createLinkDispatcher, outbound guard', () => {
  let site: Server;
  let port = 0;
  let hits = 0;
  let fixture: LinkFixture;
  before(async () => {
    site = createServer((_request, response) => {
      hits += 1;
      response.writeHead(200, { 'content-type': 'text/plain' }).end('internal');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
    fixture = await startLinkFixture();
  });
  after(async () => {
    await fixture.close();
    await new Promise((resolve) => site.close(resolve));
  });

  /** Sends one HEAD through a fresh dispatcher; the failure it raised, or the status. */
  const attempt = async (url: string, options: { proxy?: string; resolve?: ResolveHost; allow?: boolean }): Promise<RequestFailure | number> => {
    const connections = createLinkDispatcher({
      proxy: options.proxy, concurrency: 2, perHost: 1, policy: { allowPrivateAddresses: options.allow === true }, ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    try {
      const response = await sendRequest({ dispatcher: connections.dispatcher, viaProxy: options.proxy !== undefined, url, method: 'HEAD', headers: {}, timeoutMs: 2000, read: 'none', bodyCap: 1024 });
      return response.status;
    } catch (error) {
      if (error instanceof RequestFailure) return error;
      throw error;
    } finally {
      await connections.destroy();
    }
  };
  const refusal = (answer: RequestFailure | number) => (answer instanceof RequestFailure ? `${answer.kind}: ${answer.detail}` : `status ${answer}`);

  it('refuses a name whose resolver answers loopback, at connect time, and never connects', async () => {
    const before = hits;
    const answer = await attempt(`http://rebind.test:${port}/`, { resolve: resolver({ 'rebind.test': ['127.0.0.1'] }) });
    assert.equal(refusal(answer), 'refused: rebind.test resolves to loopback address 127.0.0.1');
    assert.ok(answer instanceof RequestFailure && !answer.transient && !answer.unreachable);
    assert.equal(hits, before);
  });

  it('refuses a name when any one of its addresses is refused, whatever the order', async () => {
    const answer = await attempt(`http://mixed.test:${port}/`, { resolve: resolver({ 'mixed.test': ['93.184.215.14', '::ffff:7f00:1'] }) });
    assert.equal(refusal(answer), 'refused: mixed.test resolves to loopback address ::ffff:7f00:1 (IPv4 127.0.0.1)');
  });

  it('refuses loopback literals and localhost before any lookup', async () => {
    const before = hits;
    for (const host of ['127.0.0.1', '2130706433', '[::ffff:7f00:1]', 'localhost']) {
      const answer = await attempt(`http://${host}:${port}/`, { resolve: () => assert.fail('no lookup for a refused URL') });
      assert.match(refusal(answer), /^refused: loopback (address|host) /, host);
    }
    assert.equal(hits, before);
  });

  it('reaches the loopback site with allowPrivateAddresses, by literal and by a resolved name', async () => {
    const before = hits;
    assert.equal(await attempt(`http://127.0.0.1:${port}/`, { allow: true }), 200);
    assert.equal(await attempt(`http://dev.test:${port}/`, { allow: true, resolve: resolver({ 'dev.test': ['127.0.0.1'] }) }), 200);
    assert.equal(hits, before + 2);
  });

  it('passes resolver failures through as unreachable dns failures (the no-network guard counts them)', async () => {
    const answer = await attempt(`http://nowhere.test:${port}/`, { resolve: resolver({}) });
    assert.ok(answer instanceof RequestFailure);
    assert.equal(answer.kind, 'dns');
    assert.ok(answer.unreachable && answer.transient);
  });

  it('through a proxy, refuses metadata and loopback literals without sending them to the proxy, and lets made-up names through', async () => {
    const answer = await attempt('http://169.254.169.254/latest/meta-data/iam/security-credentials/', { proxy: fixture.proxyUrl });
    assert.equal(refusal(answer), 'refused: cloud metadata address 169.254.169.254');
    assert.equal(refusal(await attempt('https://127.0.0.1:6379/', { proxy: fixture.proxyUrl })), 'refused: loopback address 127.0.0.1');
    assert.equal(refusal(await attempt('http://localhost:6379/', { proxy: fixture.proxyUrl })), 'refused: loopback host localhost');
    assert.equal(fixture.requests.length + fixture.tunnels.length, 0, 'the proxy saw nothing');
    assert.equal(await attempt('http://pages.test/program', { proxy: fixture.proxyUrl }), 200);
    assert.deepEqual(fixture.requests.map((request) => request.host), ['pages.test']);
  });
});

describe('createLinkDispatcher, a proxy that demands credentials', () => {
  // The proxy wants alice with the password "p@ss:w0rd" (percent-encoded in the URL).
  const EXPECTED = `Basic ${Buffer.from('alice:p@ss:w0rd').toString('base64')}`;
  let fixture: LinkFixture;
  let withCredentials = '';
  before(async () => {
    fixture = await startLinkFixture({ proxyAuthorization: EXPECTED });
    const url = new URL(fixture.proxyUrl);
    url.username = 'alice';
    url.password = 'p%40ss%3Aw0rd';
    withCredentials = url.href;
  });
  after(() => fixture.close());

  const send = async (proxy: string, url: string): Promise<RequestFailure | number> => {
    const connections = createLinkDispatcher({ proxy, concurrency: 2, perHost: 1, policy: { allowPrivateAddresses: false } });
    try {
      return (await sendRequest({ dispatcher: connections.dispatcher, viaProxy: true, url, method: 'GET', headers: {}, timeoutMs: 2000, read: 'none', bodyCap: 1024 })).status;
    } catch (error) {
      if (error instanceof RequestFailure) return error;
      throw error;
    } finally {
      await connections.destroy();
    }
  };

  it('sends the URL\'s credentials on plain http requests', async () => {
    const refusedBefore = fixture.authRefused;
    assert.equal(await send(withCredentials, 'http://pages.test/program'), 200);
    assert.equal(fixture.authRefused, refusedBefore);
  });

  it('sends them on CONNECT too (the tunnel opens)', async () => {
    const answer = await send(withCredentials, 'https://secure.test/program');
    // The fixture speaks plain HTTP inside the tunnel, so TLS fails there, after the proxy let the tunnel open.
    assert.ok(answer instanceof RequestFailure && answer.kind !== 'proxy', String(answer));
    assert.ok(fixture.tunnels.includes('secure.test:443'));
  });

  it('without credentials, the proxy\'s 407 is a failure of kind proxy that never reached the host, on both paths', async () => {
    for (const url of ['http://pages.test/program', 'https://secure.test/program']) {
      const answer = await send(fixture.proxyUrl, url);
      assert.ok(answer instanceof RequestFailure, `${url}: ${String(answer)}`);
      assert.equal(`${answer.kind}: ${answer.detail}`, 'proxy: the proxy demands credentials (407 Proxy Authentication Required)', url);
      assert.ok(answer.unreachable && !answer.transient, url);
    }
  });

  it('a wrong password is refused the same way', async () => {
    const wrong = new URL(withCredentials);
    wrong.password = 'guess';
    const answer = await send(wrong.href, 'http://pages.test/program');
    assert.ok(answer instanceof RequestFailure && answer.kind === 'proxy', String(answer));
  });
});
