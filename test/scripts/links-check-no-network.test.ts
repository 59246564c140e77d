/**
 * `hra links check` without a way out (issue 22, item 8), end to end: the real CLI against a proxy that
 * answers 502 for every host, and without a proxy against loopback ports where nothing listens. Such a
 * run stops with one line within seconds, leaves the corpus as it was and shows no ETA; a healthy run with
 * one dead host does not stop.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBadGatewayProxy, type BadGatewayProxy } from '../support/bad-gateway-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { lastLine, runHraAsync } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-links-no-network-');
const AT = '2026-11-20T06:00:00Z';
const FAST = ['--host-interval-ms', '0', '--timeout-ms', '2000', '--retries', '1', '--max-age-days', '1'];
const PROGRAM_PAGE = '<!doctype html><html><head><title>Home Repair Grant</title></head><body><h1>Home Repair Grant</h1></body></html>';

/** A loopback port nothing listens on. */
const closedPort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    server.close(() => resolve(port));
  });
});

/** Every folder and file under `dir`, with each file's bytes (base64), in path order. */
function listCorpus(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return `${path.slice(dir.length)} ${entry.isDirectory() ? 'folder' : readFileSync(path).toString('base64')}`;
    })
    .sort();
}

/** Runs a check over `urls` only and returns the run and the attempts file before and after. */
async function checkOnly(name: string, urls: readonly string[], extra: readonly string[]) {
  const corpus = writeLinkTestCorpus(join(work, name), { extraUrls: urls });
  const logFile = join(corpus, 'evidence/link-checks.ndjson');
  const before = readFileSync(logFile, 'utf8');
  const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...FAST, ...urls.flatMap((url) => ['--url', url]), ...extra]);
  return { run, before, after: readFileSync(logFile, 'utf8'), corpus };
}

describe('hra links check, no network', () => {
  let proxy: BadGatewayProxy;
  const sites: Server[] = [];
  before(async () => {
    proxy = await startBadGatewayProxy({ down: true });
  });
  after(async () => {
    await proxy.close();
    await Promise.all(sites.map((site) => new Promise((resolve) => site.close(resolve))));
    rmSync(work, { recursive: true, force: true });
  });

  it('at the default politeness, decides within 20 s, leaves every byte of the corpus as it was and shows no ETA', async () => {
    // Eight hosts of eight URLs each, plus the corpus's own: starts on one host are a second apart, and
    // quote checks are due, whose file the corpus does not have yet.
    const urls = Array.from({ length: 64 }, (_, i) => `http://site${i % 8}.test/program-${i}`);
    const corpus = writeLinkTestCorpus(join(work, 'defaults'), { extraUrls: urls });
    const before = listCorpus(corpus);
    assert.ok(!before.some((line) => line.startsWith('/evidence/quote-checks.ndjson ')));
    const started = performance.now();
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', proxy.proxyUrl]);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(run.status, 1, run.stderr);
    assert.match(lastLine(run.stderr), /^hra: no network: \d+ of the first \d+ attempts \(\d+ hosts\) never reached their host \(last: status 502.*\); nothing was appended; /);
    assert.deepEqual(listCorpus(corpus), before, 'no new file, no changed byte (manifest asOf included)');
    // Measured on a quiet machine: about 8 s (process start included); 26 s before the decision used first tries.
    assert.ok(seconds < 20, `the refusal took ${seconds.toFixed(1)} s`);
    assert.doesNotMatch(run.stderr, /eta \d/, 'an ETA while the network is in doubt cannot hold');
  });

  it('stops, appending nothing, when the proxy answers 502 for every host and refuses every tunnel', async () => {
    const urls = [...Array.from({ length: 10 }, (_, i) => `http://site${i}.test/program`), 'https://secure1.test/program', 'https://secure2.test/program'];
    const { run, before, after, corpus } = await checkOnly('bad-gateway', urls, ['--proxy', proxy.proxyUrl]);
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      lastLine(run.stderr),
      new RegExp(`^hra: no network: 1[12] of the first 1[12] attempts \\(1[12] hosts\\) never reached their host \\(last: .*\\); nothing was appended; check the resolver and the network or --proxy ${proxy.proxyUrl.replaceAll('.', '\\.')}/, then rerun$`),
    );
    assert.equal(after, before, 'nothing appended');
    assert.equal(run.stdout, '');
    assert.ok(proxy.seen.some((seen) => seen.startsWith('secure1.test:443')), 'the https URLs were tried through a tunnel');
    assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0);
  });

  it('stops, appending nothing, when no host accepts a connection (no proxy)', async () => {
    const ports = await Promise.all(Array.from({ length: 10 }, closedPort));
    const urls = ports.map((port) => `http://127.0.0.1:${port}/program`);
    const { run, before, after } = await checkOnly('refused', urls, ['--allow-private-addresses', '--json']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(lastLine(run.stderr), /^hra: no network: 9 of the first 9 attempts \(9 hosts\) never reached their host \(last: connection: connect ECONNREFUSED 127\.0\.0\.1:\d+\); nothing was appended; check the resolver and the network, then rerun$/);
    assert.equal(after, before);
  });

  it('does not stop a healthy run with one dead host: every attempt is appended, the dead one inconclusive', async () => {
    for (let i = 0; i < 4; i += 1) {
      const site = createHttpServer((request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' }).end(request.method === 'HEAD' ? undefined : PROGRAM_PAGE);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      sites.push(site);
    }
    const dead = await closedPort();
    const urls = [
      ...sites.flatMap((site, i) => [`http://127.0.0.1:${(site.address() as AddressInfo).port}/a${i}`, `http://127.0.0.1:${(site.address() as AddressInfo).port}/b${i}`]),
      `http://127.0.0.1:${dead}/gone-1`, `http://127.0.0.1:${dead}/gone-2`,
    ];
    const { run, before, after } = await checkOnly('healthy', urls, ['--allow-private-addresses', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const appended = after.slice(before.length).trimEnd().split('\n').map((line) => JSON.parse(line) as { url: string; outcome: string });
    assert.deepEqual(appended.map((row) => `${row.url} ${row.outcome}`).sort(), urls.map((url) => `${url} ${url.includes(`:${dead}/`) ? 'inconclusive' : 'live'}`).sort());
    assert.deepEqual((JSON.parse(lastLine(run.stdout)) as { appended: number }).appended, urls.length);
  });
});
