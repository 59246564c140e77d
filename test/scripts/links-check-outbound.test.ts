/**
 * `hra links check` refuses to reach loopback, private and metadata addresses (STYLE 29), end to end:
 * the real CLI, through the loopback fixture proxy (made-up names pass, literals are refused) and
 * without a proxy against a loopback site (refused unless --allow-private-addresses).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { lastLine, runHraAsync } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-links-outbound-');
const AT = '2026-11-20T06:00:00Z';
const FAST = ['--host-interval-ms', '0', '--timeout-ms', '2000', '--retries', '0', '--max-age-days', '1'];
const PROGRAM_PAGE = '<!doctype html><html><head><title>Home Repair Grant</title></head><body><h1>Home Repair Grant</h1></body></html>';

/** Cited URL (a fixture redirect) -> the reason its attempt must give. */
const REDIRECTS: Record<string, string> = {
  'http://r1.test/to-host/127.0.0.1/admin': 'refused: redirect to loopback address 127.0.0.1',
  'http://r2.test/to-host/127.0.0.1:6379/': 'refused: redirect to loopback address 127.0.0.1',
  'http://r3.test/to-host/localhost:8080/status': 'refused: redirect to loopback host localhost',
  'http://r4.test/to-host/%5B::ffff:7f00:1%5D/x': 'refused: redirect to loopback address ::ffff:7f00:1 (IPv4 127.0.0.1)',
  'http://r5.test/to-host/2130706433/x': 'refused: redirect to loopback address 127.0.0.1',
  'http://r6.test/to-host/0x7f.0.0.2:8080/x': 'refused: redirect to loopback address 127.0.0.2',
  'http://r7.test/to-host/169.254.169.254/latest/meta-data/iam/security-credentials/': 'refused: redirect to cloud metadata address 169.254.169.254',
  'http://r8.test/to-host/10.1.2.3/intranet': 'refused: redirect to private address 10.1.2.3',
};

/** Writes a corpus citing `urls`, each with an earlier `live` attempt so the summary lists its move and reason. */
function corpusCiting(name: string, urls: readonly string[]): string {
  return writeLinkTestCorpus(join(work, name), {
    extraUrls: urls,
    linkChecks: urls.map((url) => ({ url, checkedAt: '2026-11-01', outcome: 'live', httpStatus: 200, pageClass: 'program' })),
  });
}

const only = (urls: readonly string[]) => urls.flatMap((url) => ['--url', url]);
type Changed = { url: string; from: string; to: string; httpStatus: number | null; reason: string };

describe('hra links check, outbound safety', () => {
  let fixture: LinkFixture;
  let site: Server;
  let siteHits = 0;
  let sitePort = 0;
  before(async () => {
    fixture = await startLinkFixture();
    site = createServer((_request, response) => {
      siteHits += 1;
      response.writeHead(200, { 'content-type': 'text/html' }).end(PROGRAM_PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
  });
  after(async () => {
    await fixture.close();
    await new Promise((resolve) => site.close(resolve));
  });

  it('through the proxy: follows made-up names, refuses every redirect to a loopback, private or metadata literal, and never asks the proxy for it', async () => {
    const urls = Object.keys(REDIRECTS);
    const corpus = corpusCiting('proxied', urls);
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', fixture.proxyUrl, ...FAST, ...only(urls), '--json']);
    assert.equal(run.status, 0, run.stderr);
    const changed = (JSON.parse(lastLine(run.stdout)) as { changed: Changed[] }).changed;
    assert.deepEqual(
      Object.fromEntries(changed.map((change) => [change.url, [change.to, change.httpStatus, change.reason]])),
      Object.fromEntries(urls.map((url) => [url, ['inconclusive', null, REDIRECTS[url]]])),
    );
    for (const url of urls) assert.ok(run.stderr.includes(`links: ${url}: ${REDIRECTS[url]}\n`), `stderr names the refusal of ${url}`);
    const asked = fixture.requests.map((request) => request.host);
    assert.deepEqual(new Set(asked), new Set(urls.map((url) => new URL(url).host)), 'only the made-up cited hosts reached the proxy');
    assert.equal(fixture.tunnels.length, 0);
    const appended = readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8').trimEnd().split('\n').slice(urls.length);
    assert.ok(appended.every((line) => (JSON.parse(line) as { outcome: string }).outcome === 'inconclusive'), 'none recorded live');
  });

  it('without a proxy: refuses a cited loopback literal and localhost, and reaches them only with --allow-private-addresses', async () => {
    const urls = [`http://127.0.0.1:${sitePort}/program`, `http://localhost:${sitePort}/program`];
    const corpus = corpusCiting('direct', urls);
    const refused = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...FAST, ...only(urls), '--dry-run', '--json']);
    assert.equal(refused.status, 0, refused.stderr);
    const changed = (JSON.parse(lastLine(refused.stdout)) as { changed: Changed[] }).changed;
    assert.deepEqual(changed.map((change) => [change.url, change.to, change.reason]).sort(), [
      [urls[0], 'inconclusive', 'refused: loopback address 127.0.0.1'],
      [urls[1], 'inconclusive', 'refused: loopback host localhost'],
    ]);
    assert.equal(siteHits, 0, 'the loopback site was never asked');

    const allowed = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...FAST, ...only(urls), '--allow-private-addresses', '--json']);
    assert.equal(allowed.status, 0, allowed.stderr);
    const summary = JSON.parse(lastLine(allowed.stdout)) as { outcomes: Record<string, number>; appended: number };
    assert.deepEqual([summary.outcomes.live, summary.appended], [2, 2]);
    assert.ok(siteHits >= 2);
  });
});
