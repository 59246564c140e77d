/**
 * `hra links check` end to end: the real CLI in a child process, talking only to a loopback fixture proxy
 * that answers every host itself (scripts/loopback/link-fixture-proxy.ts). Test corpora cite made-up `.test`
 * hosts; no request ever leaves the machine.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../build/snapshot/publish-snapshot.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus, writeSlowHostCorpus } from '../support/link-test-corpus.ts';
import { finishedRun, killAfterAppended, lastLine, runHraAsync, spawnHra } from '../support/run-hra.ts';
import { createTestCertificate } from '../support/test-certificate.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-links-check-');
const AT = '2026-11-20T06:00:00Z';
// Small politeness figures keep the suite fast; the fixture measures them all the same.
const FAST = ['--host-interval-ms', '20', '--timeout-ms', '400', '--retries', '1', '--per-host', '2', '--concurrency', '8'];
const INTERVAL_MS = 100;
const LATENESS_ALLOWANCE_MS = 150;
const MAIN = ['--max-age-days', '10', ...FAST, '--host-interval-ms', String(INTERVAL_MS)];
const UA = 'hra-link-check (+https://maintainers.mini-fixture.test/contact; dataset mini-fixture)';

type Expected = { outcome: string; httpStatus: number | null; pageClass?: string };
const live = (pageClass = 'program', httpStatus = 200): Expected => ({ outcome: 'live', httpStatus, pageClass });
const ofStatus = (outcome: string, httpStatus: number | null): Expected => ({ outcome, httpStatus });

/** Cited URL -> the attempt the outcome table (corpus/README.md) says it gets. */
const TABLE: Record<string, Expected> = {
  'http://pages.test/program-a': live(),
  'http://pages.test/': live('agency'),
  'http://pages.test/to-root': live('agency'),
  'http://pages.test/section/old-program': live('agency'),
  'http://pages.test/form-404-b': live(),
  'http://pages.test/pdf': live(),
  'http://redirects.test/redirect/3/program-b': live(),
  'http://chain10.test/redirect/10/program-c': live(),
  'http://chain11.test/redirect/11/program-d': ofStatus('inconclusive', 302),
  'http://redirects.test/loop-a': ofStatus('inconclusive', 301),
  'http://redirects.test/no-location': ofStatus('inconclusive', 302),
  'http://redirects.test/to-host/elsewhere.test/program-e': live(),
  'http://dead.test/missing': ofStatus('dead', 404),
  'http://dead.test/gone': ofStatus('dead', 410),
  'http://dead.test/not-found-route': ofStatus('dead', 200),
  'http://dead.test/teapot': ofStatus('inconclusive', 418),
  'http://soft.test/soft-404': ofStatus('dead', 200),
  'http://soft.test/soft-404-heading': ofStatus('dead', 200),
  'http://soft.test/soft-404-spanish': ofStatus('dead', 200),
  'http://soft.test/soft-404-gzip': ofStatus('dead', 200),
  'http://walls.test/unauthorized': ofStatus('bot-blocked', 401),
  'http://walls.test/forbidden': ofStatus('bot-blocked', 403),
  'http://walls.test/bot-wall': ofStatus('bot-blocked', 403),
  'http://walls.test/challenge-200': ofStatus('bot-blocked', 200),
  'http://walls.test/waf-challenge': ofStatus('bot-blocked', 202),
  'http://head.test/head-405': live(),
  'http://head.test/head-501': live(),
  'http://head.test/head-404': live(),
  'http://retry.test/retry-after/1': live(),
  'http://retry.test/unavailable/1': live(),
  'http://retry.test/retry-after/3600': ofStatus('inconclusive', 429),
  'http://flaky.test/flaky': live(),
  'http://flaky.test/flaky-502': live(),
  'http://flaky.test/always-500': ofStatus('inconclusive', 500),
  'http://flaky.test/always-503': ofStatus('inconclusive', 503),
  'http://stall.test/stall': ofStatus('inconclusive', null),
  'http://reset.test/reset': ofStatus('inconclusive', null),
  ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`http://busy.test/slow/300/p${i}`, live()])),
};
// The mini corpus's own URLs answer 200 (program pages) or / (agency) from the fixture.
const MINI: Record<string, Expected> = {
  'http://alpha.test/roof': live(), 'http://alpha.test/agency': live(), 'http://alpha.test/ramps': live(), 'http://alpha.test/bills': live(),
  'http://alpha.test/lead': live(), 'http://alpha.test/old': live(), 'http://beta.test/wx': live(), 'http://beta.test/repair': live(),
  'http://state.test/loan': live(), 'http://fed.test/wap': live(), 'http://fed.test/title1': live(), 'http://fed.test/203k': live(),
};
// Checked 2026-11-11, nine days before AT: younger than --max-age-days 10, so left alone.
const FRESH = ['http://gamma.test/grant', 'http://fed.test/504'];

const rowsOf = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('hra links check', () => {
  let fixture: LinkFixture;
  let corpus: string;
  let logFile: string;
  let before1 = '';
  let manifestBefore = '';
  let snapshot = '';
  let https: { certFile: string } | { skip: string };

  before(async () => {
    mkdirSync(join(work, 'cert'));
    const certificate = createTestCertificate(join(work, 'cert'), 'secure.test');
    https = 'skip' in certificate ? certificate : { certFile: certificate.certFile };
    fixture = await startLinkFixture('skip' in certificate ? {} : { tls: certificate });
    const httpsUrls = 'skip' in certificate ? [] : ['https://secure.test/program', 'https://mismatch.test/program'];
    // Reviewed lately, so not due a review: each URL is read as a link check alone reads it (HEAD first).
    corpus = writeLinkTestCorpus(join(work, 'corpus'), { extraUrls: [...Object.keys(TABLE), ...httpsUrls], extraReviewedAt: '2026-11-15' });
    logFile = join(corpus, 'evidence/link-checks.ndjson');
    before1 = readFileSync(logFile, 'utf8');
    manifestBefore = readFileSync(join(corpus, 'manifest.json'), 'utf8');
    snapshot = buildAndPublish(loadCorpus(corpus), join(work, 'dist')).file;
  });
  after(() => fixture.close());

  it('appends one attempt per due URL with the outcome the table gives, through the proxy, in one run', async () => {
    const env: Record<string, string> = 'certFile' in https ? { NODE_EXTRA_CA_CERTS: https.certFile } : {};
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', fixture.proxyUrl, ...MAIN, '--json'], { env });
    assert.equal(run.status, 0, run.stderr);
    const text = readFileSync(logFile, 'utf8');
    assert.ok(text.startsWith(before1), 'existing lines are kept byte for byte');
    const appended = rowsOf(text.slice(before1.length));
    const expected: Record<string, Expected> = { ...TABLE, ...MINI, ...('certFile' in https ? { 'https://secure.test/program': live(), 'https://mismatch.test/program': ofStatus('inconclusive', null) } : {}) };
    assert.deepEqual(appended.map((row) => row.url).sort(), Object.keys(expected).sort(), 'each due URL once, the fresh ones not at all');
    for (const row of appended) {
      const { url, warcRecordId, payloadSha256, ...attempt } = row;
      assert.deepEqual(attempt, { checkedAt: '2026-11-20', ...expected[url as string] }, `${url as string}`);
      // A response came, so it was archived (links-check-archive.test.ts reads the records back).
      assert.equal(typeof warcRecordId === 'string' && typeof payloadSha256 === 'string', row.httpStatus !== null, `${url as string}: archived`);
    }
    for (const url of FRESH) assert.ok(!fixture.requests.some((request) => `http://${request.host}${request.path}` === url), `${url} was not requested`);

    const summary = JSON.parse(lastLine(run.stdout)) as Record<string, unknown>;
    const outcomes = { live: 0, dead: 0, 'bot-blocked': 0, inconclusive: 0 };
    for (const row of appended) outcomes[row.outcome as keyof typeof outcomes] += 1;
    assert.deepEqual(
      { ...summary, changed: undefined, quotes: undefined },
      {
        ok: true, checked: appended.length, cited: appended.length + 2, fresh: 2, appended: appended.length, dryRun: false, outcomes, firstChecks: appended.length - 7, changed: undefined, quotes: undefined,
        asOf: { from: '2026-11-16', to: '2026-11-20' },
      },
    );
    // Review staleness is served counted from asOf: the run that gathered evidence of 2026-11-20 moves it there,
    // and the manifest keeps its other bytes.
    const manifest = readFileSync(join(corpus, 'manifest.json'), 'utf8');
    assert.equal((JSON.parse(manifest) as { asOf: string }).asOf, '2026-11-20');
    assert.equal(manifest.replace('"asOf": "2026-11-20"', '"asOf": "2026-11-16"'), manifestBefore);
    // The mini corpus's three amount quotes ride on their URLs' fetches; the fixture's page states none of them.
    assert.deepEqual(summary.quotes, { checked: 3, fresh: 0, appended: 3, outcomes: { found: 0, 'not-found': 3, inconclusive: 0 }, extracted: 3, reused: 0 });
    // The mini corpus's earlier attempts: dead, bot-blocked and inconclusive ones that now answer 200.
    const changed = [...(summary.changed as Array<{ url: string }>)].sort((a, b) => a.url.localeCompare(b.url));
    assert.deepEqual(changed, [
      { url: 'http://alpha.test/lead', from: 'inconclusive', to: 'live', httpStatus: 200, reason: 'status 200', programs: [{ city: 'alpha', programId: 'a-lead' }] },
      { url: 'http://alpha.test/ramps', from: 'bot-blocked', to: 'live', httpStatus: 200, reason: 'status 200', programs: [{ city: 'alpha', programId: 'a-ramp' }] },
      { url: 'http://state.test/loan', from: 'dead', to: 'live', httpStatus: 200, reason: 'status 200', programs: [{ city: 'beta', programId: 'state-loan' }] },
    ], 'sorted here: the run lists them in completion order');
    const due = appended.length;
    assert.match(run.stderr, new RegExp(`links: ${due + 2} cited URLs, 2 checked within 10 days, ${due} to check`));
    assert.match(run.stderr, new RegExp(`links: ${due}/${due} checked \\(100\\.0%\\), [\\d.]+/s, eta 0 s, rss \\d+ MB`));
  });

  it('kept to the politeness limits, named itself, and fell back and retried as the rules say', () => {
    for (const [host, stats] of fixture.hosts) {
      assert.ok(stats.maxInFlight <= 2, `${host}: ${stats.maxInFlight} requests in flight at once`);
      // Arrival times carry the jitter of two processes on a busy machine: a request sent late shortens
      // the gap before the next one, so single gaps cannot be held to the interval (host-gate.test.ts
      // checks the spacing exactly, on a driven clock). The span of many starts can: delays only move
      // the first start later, so it loses at most one stretch of lateness.
      if (stats.starts.length < 8) continue;
      const span = (stats.starts.at(-1) as number) - (stats.starts[0] as number);
      assert.ok(span >= (stats.starts.length - 1) * INTERVAL_MS - LATENESS_ALLOWANCE_MS, `${host}: ${stats.starts.length} starts within ${span.toFixed(0)} ms`);
    }
    assert.ok([...fixture.hosts.values()].filter((stats) => stats.starts.length >= 8).length >= 3, 'several hosts had enough requests to measure');
    assert.equal(fixture.hosts.get('busy.test')?.maxInFlight, 2, 'two slow requests to one host did run side by side');
    assert.ok(fixture.requests.every((request) => request.userAgent === UA));
    const sent = (host: string, path: string) => fixture.requests.filter((r) => r.host === host && r.path === path).map((r) => r.method);
    assert.deepEqual(sent('head.test', '/head-405'), ['HEAD', 'GET']);
    assert.deepEqual(sent('pages.test', '/pdf'), ['HEAD'], 'a non-HTML 2xx needs no body');
    assert.deepEqual(sent('flaky.test', '/flaky'), ['HEAD', 'HEAD', 'GET'], '500 then 200: retried once');
    assert.deepEqual(sent('flaky.test', '/always-500'), ['HEAD', 'HEAD'], '--retries 1: two tries, then inconclusive');
    assert.deepEqual(sent('stall.test', '/stall'), ['HEAD', 'HEAD'], 'a timeout is retried too');
    assert.deepEqual(sent('retry.test', '/retry-after/3600'), ['HEAD'], 'a Retry-After beyond the cap is not waited for');
    const retried = fixture.requests.filter((r) => r.host === 'retry.test' && r.path === '/retry-after/1');
    assert.deepEqual(retried.map((r) => r.method), ['HEAD', 'HEAD', 'GET'], '429 with Retry-After: 1, then 200');
    const starts = fixture.hosts.get('retry.test')?.starts ?? [];
    const gaps = starts.slice(1).map((start, index) => start - (starts[index] as number));
    assert.ok(gaps.some((gap) => gap >= 900), 'Retry-After: 1 held retry.test for about a second');
    if ('certFile' in https) assert.deepEqual([...new Set(fixture.tunnels)].sort(), ['mismatch.test:443', 'secure.test:443'], 'https went through CONNECT');
  });

  it('adds nothing when run again the same day', async () => {
    const text = readFileSync(logFile, 'utf8');
    const requests = fixture.requests.length;
    const cited = new Set(rowsOf(text).map((row) => row.url)).size; // every cited URL has an attempt by now
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-11-20T18:00:00Z', '--proxy', fixture.proxyUrl, ...MAIN, '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(logFile, 'utf8'), text);
    assert.equal(fixture.requests.length, requests);
    assert.deepEqual(JSON.parse(lastLine(run.stdout)), {
      ok: true, checked: 0, cited, fresh: cited, appended: 0, dryRun: false, outcomes: { live: 0, dead: 0, 'bot-blocked': 0, inconclusive: 0 }, firstChecks: 0, changed: [],
      quotes: { checked: 0, fresh: 3, appended: 0, outcomes: { found: 0, 'not-found': 0, inconclusive: 0 }, extracted: 0, reused: 0 }, asOf: null,
    });
  });

  it('feeds changes detect: the links whose status moved become link-status-changed events, and the corpus builds', async () => {
    const run = await runHraAsync(['changes', 'detect', '--previous', snapshot, '--corpus', corpus, '--at', AT]);
    assert.equal(run.status, 0, run.stderr);
    const events = rowsOf(readFileSync(join(corpus, 'changes.ndjson'), 'utf8')).filter((event) => event.detectedAt === AT);
    const moved = (programId: string) => events.find((event) => event.programId === programId && event.type === 'link-status-changed');
    assert.deepEqual([moved('state-loan')?.fromStatus, moved('state-loan')?.toStatus], ['dead', 'live']);
    assert.deepEqual([moved('a-ramp')?.fromStatus, moved('a-ramp')?.toStatus], ['bot-blocked', 'live']);
    const missing = Object.keys(TABLE).indexOf('http://dead.test/missing') + 1;
    assert.deepEqual([moved(`link-${missing}`)?.fromStatus, moved(`link-${missing}`)?.toStatus], ['unchecked', 'dead']);
    assert.equal(moved('g-grant'), undefined, 'a URL left alone does not move');
    assert.match(buildAndPublish(loadCorpus(corpus), join(work, 'dist')).revision, /^gm1-[0-9a-f]{64}$/);
  });
});

describe('hra links check, interrupted and resumed', () => {
  it('leaves only complete lines when killed mid-run; validate passes and a re-run checks exactly the rest', async () => {
    const fixture = await startLinkFixture();
    try {
      // Everything else in the corpus is fresh, so the run is only the slow host's URLs, one at a time.
      const { corpus, logFile, urls } = writeSlowHostCorpus(join(work, 'killed'), '2026-11-19');
      const base = rowsOf(readFileSync(logFile, 'utf8')).length;
      const args = ['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', fixture.proxyUrl, '--per-host', '1', '--host-interval-ms', '40', '--timeout-ms', '2000'];
      assert.equal((await killAfterAppended(args, logFile, 5)).signal, 'SIGKILL');
      const afterKill = readFileSync(logFile, 'utf8');
      assert.ok(afterKill.endsWith('\n'));
      const done = rowsOf(afterKill).length - base;
      assert.ok(done >= 5 && done < urls.length, `killed after ${done} of ${urls.length}`);

      const validate = await runHraAsync(['validate', '--corpus', corpus]);
      assert.equal(validate.status, 0, validate.stderr);
      const resumed = await runHraAsync([...args, '--json']);
      assert.equal(resumed.status, 0, resumed.stderr);
      assert.equal((JSON.parse(lastLine(resumed.stdout)) as { checked: number }).checked, urls.length - done);
      const slow = rowsOf(readFileSync(logFile, 'utf8')).slice(base);
      assert.deepEqual(slow.map((row) => row.url).sort(), [...urls].sort(), 'every URL exactly once across the two runs');
      assert.ok(slow.every((row) => row.outcome === 'live'));
    } finally {
      await fixture.close();
    }
  });
});

describe('hra links check, dry run and --url', () => {
  it('checks only the --url ones and prints the attempts instead of appending them', async () => {
    const fixture = await startLinkFixture();
    try {
      const corpus = writeLinkTestCorpus(join(work, 'dry'), { extraUrls: ['http://site.test/missing', 'http://site.test/program'] });
      const logFile = join(corpus, 'evidence/link-checks.ndjson');
      const text = readFileSync(logFile, 'utf8');
      const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', fixture.proxyUrl, ...FAST, '--dry-run', '--url', 'http://site.test/missing', '--url', 'http://beta.test/wx', '--json']);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(readFileSync(logFile, 'utf8'), text);
      const lines = run.stdout.trimEnd().split('\n');
      const printed = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
      // beta.test/wx carries b-weather's amount quote: its check is printed too (links-check-quotes.test.ts covers those).
      assert.deepEqual(printed.filter((row) => 'quoteSha256' in row).map((row) => [row.programId, row.outcome]), [['b-weather', 'not-found']]);
      assert.deepEqual(printed.filter((row) => !('quoteSha256' in row)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
        { url: 'http://beta.test/wx', checkedAt: '2026-11-20', outcome: 'live', httpStatus: 200, pageClass: 'program' },
        { url: 'http://site.test/missing', checkedAt: '2026-11-20', outcome: 'dead', httpStatus: 404 },
      ]);
      const summary = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
      assert.deepEqual([summary.checked, summary.appended, summary.dryRun, summary.cited], [2, 0, true, 2]);
      // Without --json too, stdout is NDJSON alone: the summary goes to stderr with the progress.
      const plain = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', fixture.proxyUrl, ...FAST, '--dry-run', '--url', 'http://site.test/missing']);
      assert.equal(plain.status, 0, plain.stderr);
      const plainLines = plain.stdout.trimEnd().split('\n');
      assert.ok(plainLines.length >= 1);
      for (const line of plainLines) assert.doesNotThrow(() => JSON.parse(line), `stdout line ${JSON.stringify(line)} is JSON`);
      assert.match(plain.stderr, /^dry run: nothing appended$/m);
      assert.match(plain.stderr, /^links: 1 cited URLs/m);
      assert.deepEqual(new Set(fixture.requests.map((request) => request.host)), new Set(['site.test', 'beta.test']));
    } finally {
      await fixture.close();
    }
  });
});

describe('hra links check, bad input', () => {
  let fixture: LinkFixture;
  before(async () => {
    fixture = await startLinkFixture();
  });
  after(() => fixture.close());

  const refuses = async (what: string, corpus: string, args: readonly string[], message: RegExp) => {
    const logFile = join(corpus, 'evidence/link-checks.ndjson');
    const text = readFileSync(logFile, 'utf8');
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...args]);
    assert.notEqual(run.status, 0, `${what}: exit status`);
    assert.match(lastLine(run.stderr), message, what);
    assert.equal(run.stdout, '', `${what}: nothing on stdout`);
    assert.equal(readFileSync(logFile, 'utf8'), text, `${what}: nothing appended`);
    assert.equal(fixture.requests.length, 0, `${what}: no request sent`);
  };

  it('refuses an unreadable corpus, a refused proxy, an uncited --url, bad flags and a missing contact, appending nothing', async () => {
    const corpus = writeLinkTestCorpus(join(work, 'bad'));
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const proxy = ['--proxy', fixture.proxyUrl];
    await refuses('refused proxy', corpus, ['--proxy', `http://127.0.0.1:${closed}`], new RegExp(`^hra: --proxy http://127\\.0\\.0\\.1:${closed}/: connection refused; nothing was checked or appended$`));
    await refuses('uncited --url', corpus, [...proxy, '--url', 'http://nowhere.test/x'], /^hra: --url http:\/\/nowhere\.test\/x: no program of a live city and no national record cites it$/);
    await refuses('bad --per-host', corpus, [...proxy, '--per-host', '0'], /^hra: --per-host "0": must be a whole number of at least 1$/);
    await refuses('bad --at', corpus, [...proxy, '--at', '2026-11-20'], /^hra: --at "2026-11-20": must be an ISO 8601 date-time with a timezone/);
    for (const both of [['--archive', join(work, 'bad-archive'), '--no-archive'], ['--no-archive', '--archive', join(work, 'bad-archive')]]) {
      await refuses(both.join(' '), corpus, [...proxy, ...both], /^hra: --archive and --no-archive: give one of them; nothing was checked or appended$/);
    }
    const noContact = writeLinkTestCorpus(join(work, 'no-contact'), { manifest: { contact: undefined } });
    await refuses('no contact', noContact, proxy, /^hra: .*no-contact\/manifest\.json: no "contact" URL for the User-Agent \(add one, or pass --user-agent\)$/);
    const broken = writeLinkTestCorpus(join(work, 'broken'));
    appendFileSync(join(broken, 'cities.ndjson'), '{"slug": "epsilon", \n');
    await refuses('unreadable corpus', broken, proxy, new RegExp(`^hra: corpus is invalid: ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/cities\\.ndjson:5 \\$: not valid JSON`));
  });

  it('stops with one line when the proxy goes away mid-run, keeping the complete lines it appended', async () => {
    const dying = await startLinkFixture();
    const urls = Array.from({ length: 20 }, (_, i) => `http://slow.test/slow/30/p${i}`);
    const corpus = writeLinkTestCorpus(join(work, 'dying'), { extraUrls: urls, linkChecks: [] });
    const logFile = join(corpus, 'evidence/link-checks.ndjson');
    const finished = finishedRun(spawnHra(['links', 'check', '--corpus', corpus, '--at', AT, '--proxy', dying.proxyUrl, '--per-host', '1', '--host-interval-ms', '30', '--timeout-ms', '2000', '--retries', '1']));
    for (let waited = 0; readFileSync(logFile, 'utf8').split('\n').length < 4; waited += 20) {
      assert.ok(waited < 20_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await dying.close();
    const run = await finished;
    assert.equal(run.status, 1);
    const appended = rowsOf(readFileSync(logFile, 'utf8'));
    assert.match(lastLine(run.stderr), new RegExp(`^hra: --proxy ${dying.proxyUrl.replaceAll('.', '\\.')}/: refused connections after ${appended.length} of ${urls.length + 14} URLs were checked and appended; rerun to check the rest`));
    assert.ok(appended.length >= 3 && appended.length < urls.length + 14, 'the 14 URLs of the mini corpus and the 20 slow ones were not all checked');
    assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0);
  });
});
