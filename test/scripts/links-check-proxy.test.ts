/**
 * `hra links check` through a proxy that turns requests down itself (issue 31 item 12), end to end: the
 * real CLI against loopback proxies that demand credentials, answer 503 for every host, or refuse every
 * CONNECT. Each such run stops like a run without a network, on one line, appending nothing; the
 * `--proxy` URL's credentials reach the proxy on plain and tunnelled requests; the password is never shown.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBadGatewayProxy } from '../support/bad-gateway-proxy.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { lastLine, runHraAsync, type HraRun } from '../support/run-hra.ts';
import { createTestCertificate } from '../support/test-certificate.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-links-proxy-');
const AT = '2026-11-20T06:00:00Z';
const FAST = ['--host-interval-ms', '0', '--timeout-ms', '3000', '--retries', '1', '--max-age-days', '1'];
const PASSWORD = 'Sw0rdf1sh-4217';
const HTTP_URLS = Array.from({ length: 10 }, (_, i) => `http://site${i}.test/program`);

/** Runs a check over `urls` only; returns the run and the attempts file before and after. */
async function checkOnly(name: string, urls: readonly string[], proxy: string, extra: readonly string[] = [], env: Record<string, string> = {}) {
  const corpus = writeLinkTestCorpus(join(work, name), { extraUrls: urls });
  const logFile = join(corpus, 'evidence/link-checks.ndjson');
  const before = readFileSync(logFile, 'utf8');
  const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...FAST, '--proxy', proxy, ...urls.flatMap((url) => ['--url', url]), ...extra], { env });
  return { run, before, after: readFileSync(logFile, 'utf8') };
}

const withCredentials = (proxyUrl: string, user: string, password: string) => {
  const url = new URL(proxyUrl);
  url.username = user;
  url.password = password;
  return url.href;
};
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const assertNoPassword = (run: HraRun, appended: string) => {
  for (const [where, text] of [['stdout', run.stdout], ['stderr', run.stderr], ['appended lines', appended]] as const) {
    assert.ok(!text.includes(PASSWORD), `${where} shows the password`);
    assert.ok(!text.includes(encodeURIComponent(PASSWORD)), `${where} shows the encoded password`);
  }
};

describe('hra links check, a proxy that demands credentials', () => {
  let fixture: LinkFixture;
  let env: Record<string, string> = {};
  let httpsUrls: string[] = [];
  before(async () => {
    mkdirSync(join(work, 'cert'));
    const certificate = createTestCertificate(join(work, 'cert'), 'secure.test');
    const expected = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
    fixture = await startLinkFixture({ proxyAuthorization: expected, ...('skip' in certificate ? {} : { tls: certificate }) });
    if (!('skip' in certificate)) {
      env = { NODE_EXTRA_CA_CERTS: certificate.certFile };
      httpsUrls = ['https://secure.test/program'];
    }
  });
  after(() => fixture.close());

  it('without credentials: stops on one line with the 407, exit 1, appending nothing', async () => {
    const urls = [...HTTP_URLS, 'https://secure.test/program'];
    const { run, before, after } = await checkOnly('no-credentials', urls, fixture.proxyUrl);
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      lastLine(run.stderr),
      new RegExp(`^hra: no network: 1[01] of the first 1[01] attempts \\(1[01] hosts\\) never reached their host \\(last: proxy: the proxy demands credentials \\(407 Proxy Authentication Required\\)\\); nothing was appended; check the resolver and the network or --proxy ${escaped(fixture.proxyUrl)}/, then rerun$`),
    );
    assert.equal(after, before, 'nothing appended');
    assert.equal(run.stdout, '');
    assert.ok(fixture.authRefused >= urls.length, 'every request and tunnel met the 407');
  });

  it('a wrong password: the same stop, and neither the line nor the --json output shows the password', async () => {
    const proxy = withCredentials(fixture.proxyUrl, 'alice', `wrong-${PASSWORD}`);
    const { run, before, after } = await checkOnly('wrong-password', HTTP_URLS, proxy, ['--json']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(lastLine(run.stderr), new RegExp(`\\(407 Proxy Authentication Required\\)\\); nothing was appended; check the resolver and the network or --proxy http://alice:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/, then rerun$`));
    assert.equal(after, before);
    assert.match(lastLine(run.stdout), /^\{"ok":false,"error":"no network: /);
    assertNoPassword(run, after.slice(before.length));
  });

  it('with the right credentials: every URL is checked, plain http and through a tunnel', async () => {
    const refusedBefore = fixture.authRefused;
    const urls = [...HTTP_URLS, ...httpsUrls];
    const { run, before, after } = await checkOnly('credentials', urls, withCredentials(fixture.proxyUrl, 'alice', PASSWORD), ['--json'], env);
    assert.equal(run.status, 0, run.stderr);
    const appended = after.slice(before.length).trimEnd().split('\n').map((line) => JSON.parse(line) as { url: string; outcome: string });
    assert.deepEqual(appended.map((row) => `${row.url} ${row.outcome}`).sort(), urls.map((url) => `${url} live`).sort());
    assert.equal(fixture.authRefused, refusedBefore, 'the proxy never had to ask');
    assertNoPassword(run, after.slice(before.length));
  });

  it('a proxy that does not answer: the refusal line hides the password', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const { run, before, after } = await checkOnly('closed', HTTP_URLS.slice(0, 2), `http://alice:${PASSWORD}@127.0.0.1:${port}`);
    assert.equal(run.status, 1);
    assert.equal(lastLine(run.stderr), `hra: --proxy http://alice:***@127.0.0.1:${port}/: connection refused; nothing was checked or appended`);
    assert.equal(after, before);
    assertNoPassword(run, '');
  });

  it('a --proxy that is not a URL is refused without its password', async () => {
    const { run } = await checkOnly('not-a-url', HTTP_URLS.slice(0, 1), `http://alice:${PASSWORD}@proxy host:3128`);
    assert.equal(run.status, 1);
    assert.equal(lastLine(run.stderr), 'hra: --proxy "http://alice:***@proxy host:3128": not a URL (expected http://host:port)');
  });
});

describe('hra links check, a proxy that turns every request down itself', () => {
  it('503 for every host and tunnel: stops on one line, appending nothing', async () => {
    const proxy = await startBadGatewayProxy({ down: true, status: 503 });
    try {
      const { run, before, after } = await checkOnly('unavailable', [...HTTP_URLS, 'https://secure1.test/program'], proxy.proxyUrl);
      assert.equal(run.status, 1, run.stderr);
      assert.match(lastLine(run.stderr), /^hra: no network: 1[01] of the first 1[01] attempts \(1[01] hosts\) never reached their host \(last: .*503.*\); nothing was appended; /);
      assert.equal(after, before);
    } finally {
      await proxy.close();
    }
  });

  it('every CONNECT refused (501): stops on one line, appending nothing', async () => {
    const proxy = await startBadGatewayProxy({ down: false });
    try {
      const urls = Array.from({ length: 9 }, (_, i) => `https://secure${i}.test/program`);
      const { run, before, after } = await checkOnly('no-tunnels', urls, proxy.proxyUrl);
      assert.equal(run.status, 1, run.stderr);
      assert.match(lastLine(run.stderr), /^hra: no network: 9 of the first 9 attempts \(9 hosts\) never reached their host \(last: proxy: the proxy refused the CONNECT tunnel \(501\)\); nothing was appended; /);
      assert.equal(after, before);
    } finally {
      await proxy.close();
    }
  });
});
