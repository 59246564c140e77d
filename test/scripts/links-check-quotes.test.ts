/**
 * `hra links check` quote checks end to end: the real CLI through the loopback fixture proxy, whose
 * `quotes.test` pages (test/support/quote-fixture-pages.ts) each exercise one row of the outcome table;
 * then the snapshot built from the corpus serves the derived freshness, and `links report` lists the
 * candidates. No request leaves the machine.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { quoteDigest } from '../../build/derive/quote-digest.ts';
import { EXTRACTOR_VERSION } from '../../build/quotes/extractor-version.ts';
import { buildAndPublish } from '../../build/snapshot/publish-snapshot.ts';
import { openSnapshot } from '../../gateway/snapshot/open-snapshot.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { createQuotePages, QUOTE_CASES, QUOTE_HOST } from '../support/quote-fixture-pages.ts';
import { finishedRun, lastLine, runHraAsync, spawnHra } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-links-quotes-');
const AT = '2026-11-20T06:00:00Z';
/**
 * How every run here reaches the fixture: the proxy, and any flag a run needs to be let through to a
 * loopback fixture (add it here, once, for all of them).
 */
const viaFixture = (fixture: LinkFixture) => ['--proxy', fixture.proxyUrl];
const FLAGS = ['--max-age-days', '6', '--host-interval-ms', '0', '--timeout-ms', '1500', '--retries', '0', '--per-host', '2', '--concurrency', '8'];
const REVIEWED_AT = '2026-11-01';
/**
 * Pages a first run hands to extraction: one per fixture page and per mini-corpus quote URL (3), less the two
 * whose body the fetch leaves broken (/never-finishes.pdf, /cut-short-gzip), which are never extracted.
 */
const EXTRACTED_FIRST_RUN = QUOTE_CASES.length + 3 - 2;

const rowsOf = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
const urlOf = (path: string) => `http://${QUOTE_HOST}${path}`;

/**
 * The link test corpus plus one alpha program per fixture page (`link-1`, ...), each with a $10,000
 * ceiling and a fresh amount review quoting the page. The hand-typed `quoteFoundInPage` is set to the
 * opposite of what a conclusive check must find, so the served flag shows which one decided.
 */
function writeQuoteCorpus(dir: string, extraUrls: readonly string[], quotes: readonly string[], handTyped: readonly boolean[]): string {
  const corpus = writeLinkTestCorpus(dir, { extraUrls });
  const alpha = join(corpus, 'programs/alpha.ndjson');
  const rows = rowsOf(readFileSync(alpha, 'utf8')).map((row) =>
    (String(row.id).startsWith('link-') ? { ...row, maxAmount: 10000, maxAmountLabel: 'Up to $10,000', maxAmountLabel_es: 'Hasta $10,000' } : row));
  writeFileSync(alpha, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  const reviews = quotes.map((quote, index) => ({
    city: 'alpha', programId: `link-${index + 1}`, reviewedAt: REVIEWED_AT, kind: 'amount', identityMatch: true, amountQuote: quote, quoteFoundInPage: handTyped[index],
  }));
  appendFileSync(join(corpus, 'evidence/source-reviews.ndjson'), reviews.map((row) => `${JSON.stringify(row)}\n`).join(''));
  return corpus;
}

describe('hra links check, quote checks', () => {
  let fixture: LinkFixture;
  let corpus: string;
  let quoteFile: string;
  let firstRun: { status: number | null; stdout: string; stderr: string };

  before(async () => {
    fixture = await startLinkFixture({ answer: await createQuotePages() });
    corpus = writeQuoteCorpus(
      join(work, 'corpus'),
      QUOTE_CASES.map((c) => urlOf(c.path)),
      QUOTE_CASES.map((c) => c.quote),
      QUOTE_CASES.map((c) => c.outcome !== 'found'),
    );
    quoteFile = join(corpus, 'evidence/quote-checks.ndjson');
    firstRun = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...viaFixture(fixture), ...FLAGS, '--json']);
  });
  after(() => fixture.close());

  it('appends one quote check per page with the outcome the table gives', () => {
    assert.equal(firstRun.status, 0, firstRun.stderr);
    const checks = rowsOf(readFileSync(quoteFile, 'utf8'));
    const links = rowsOf(readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8'));
    for (const [index, expected] of QUOTE_CASES.entries()) {
      const url = urlOf(expected.path);
      const mine = checks.filter((check) => check.url === url);
      assert.equal(mine.length, 1, `${url}: one check`);
      const { reason, textLength, textSha256, statedAmounts, warcRecordId, payloadSha256, extractor, ...rest } = mine[0] as Record<string, unknown>;
      // From the same fetch as the URL's attempt: the same archived page (links-check-archive.test.ts reads them back).
      const attempt = links.find((line) => line.url === url);
      assert.deepEqual([warcRecordId, payloadSha256, extractor], [attempt?.warcRecordId, attempt?.payloadSha256, EXTRACTOR_VERSION], url);
      assert.deepEqual(rest, {
        city: 'alpha', programId: `link-${index + 1}`, reviewedAt: REVIEWED_AT, quoteSha256: quoteDigest(expected.quote),
        url, finalUrl: urlOf(expected.finalPath ?? expected.path), checkedAt: '2026-11-20', outcome: expected.outcome, contentType: expected.contentType,
      }, url);
      if (expected.outcome === 'inconclusive') {
        assert.match(String(reason), expected.reason as RegExp, url);
        assert.deepEqual([textLength, textSha256, statedAmounts], [undefined, undefined, undefined], url);
      } else {
        assert.equal(reason, undefined, url);
        assert.ok(typeof textLength === 'number' && textLength > 50, `${url}: textLength ${String(textLength)}`);
        assert.match(String(textSha256), /^[0-9a-f]{64}$/, url);
        assert.deepEqual(statedAmounts, expected.statedAmounts, url);
      }
    }
    // The mini corpus's own amount quotes are not on the fixture's generic page.
    const mini = checks.filter((check) => !String(check.url).includes(QUOTE_HOST));
    assert.deepEqual(mini.map((check) => `${String(check.programId)} ${String(check.outcome)}`).sort(), ['a-roof not-found', 'b-repair not-found', 'b-weather not-found']);
    const summary = JSON.parse(lastLine(firstRun.stdout)) as { quotes: unknown };
    const count = (outcome: string) => checks.filter((check) => check.outcome === outcome).length;
    assert.deepEqual(summary.quotes, {
      checked: checks.length, fresh: 0, appended: checks.length, outcomes: { found: count('found'), 'not-found': count('not-found'), inconclusive: count('inconclusive') },
      extracted: EXTRACTED_FIRST_RUN, reused: 0,
    });
  });

  it('fetched each page once, with GET only, for both its link attempt and its quote checks', () => {
    const sent = fixture.requests.filter((request) => request.host === QUOTE_HOST);
    const count = (path: string) => sent.filter((request) => request.path === path).length;
    for (const { path } of QUOTE_CASES) assert.equal(count(path), path === '/verbatim' ? 2 : 1, `${path} (the /moved redirect lands on /verbatim)`);
    assert.ok(sent.every((request) => request.method === 'GET'));
    const links = rowsOf(readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8')).filter((check) => String(check.url).includes(QUOTE_HOST));
    assert.deepEqual(links.map((check) => [check.url, check.outcome]).sort(), QUOTE_CASES.map((c) => [urlOf(c.path), 'live']).sort());
  });

  it('serves the derived freshness from the checks: found and not-found decide, inconclusive keeps the hand-typed flag', async () => {
    assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0);
    const snapshot = openSnapshot(buildAndPublish(loadCorpus(corpus), join(work, 'dist')).file);
    try {
      const served = new Map(snapshot.cityRecords('alpha').flatMap((record) => (record.withheld === 'served' ? [[record.id, JSON.parse(record.body.toString('utf8'))]] : [])));
      for (const [index, expected] of QUOTE_CASES.entries()) {
        const freshness = (served.get(`link-${index + 1}`) as { freshness: Record<string, unknown> }).freshness;
        // Inconclusive: the hand-typed flag (true here) stands.
        const verified = expected.outcome !== 'not-found';
        assert.deepEqual(
          [freshness.sourceAmountVerified, freshness.sourceQuoteVerified, freshness.confidence],
          [true, verified, verified ? 'source-verified' : 'model-identity-reviewed'],
          expected.path,
        );
      }
    } finally {
      snapshot.close();
    }
  });

  it('reports the quotes no longer found with the amounts the pages state beside maxAmount', async () => {
    const run = await runHraAsync(['links', 'report', '--corpus', corpus, '--at', AT, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(lastLine(run.stdout)) as { quotesNotFound: Array<Record<string, unknown>> };
    const quoteHost = report.quotesNotFound.filter((entry) => String(entry.url).includes(QUOTE_HOST));
    // The report sorts by program id as text (link-13 before link-8).
    const notFound = QUOTE_CASES.flatMap((c, index) => (c.outcome === 'not-found' ? [{ c, programId: `link-${index + 1}` }] : []))
      .sort((a, b) => (a.programId < b.programId ? -1 : 1));
    assert.deepEqual(quoteHost, notFound.map(({ c, programId }) => ({
      city: 'alpha', programId, url: urlOf(c.path), finalUrl: urlOf(c.path), checkedAt: '2026-11-20', quote: c.quote, maxAmount: 10000, statedAmounts: c.statedAmounts,
    })));
    const markdown = await runHraAsync(['links', 'report', '--corpus', corpus, '--at', AT, '--markdown']);
    assert.equal(markdown.status, 0, markdown.stderr);
    assert.match(markdown.stdout, /\| link-8 \| http:\/\/quotes\.test\/amount-changed \| 2026-11-20 \| \$10,000 \| \$12,500, \$500 \|/);
  });

  it('checks nothing when run again the same day', async () => {
    const before = [readFileSync(quoteFile, 'utf8'), readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8')];
    const requests = fixture.requests.length;
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-11-20T18:00:00Z', ...viaFixture(fixture), ...FLAGS, '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual([readFileSync(quoteFile, 'utf8'), readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8')], before);
    assert.equal(fixture.requests.length, requests);
    const summary = JSON.parse(lastLine(run.stdout)) as { checked: number; quotes: { checked: number; fresh: number } };
    assert.deepEqual([summary.checked, summary.quotes.checked, summary.quotes.fresh], [0, 0, QUOTE_CASES.length + 3]);
  });

  it('checks an edited quote again the same day, and only that one', async () => {
    const reviews = join(corpus, 'evidence/source-reviews.ndjson');
    const text = readFileSync(reviews, 'utf8');
    writeFileSync(reviews, text.replace('"programId":"link-8","reviewedAt":"2026-11-01","kind":"amount","identityMatch":true,"amountQuote":"Eligible homeowners may receive up to $10,000 for home repairs."', '"programId":"link-8","reviewedAt":"2026-11-01","kind":"amount","identityMatch":true,"amountQuote":"Eligible homeowners may receive up to $12,500 for home repairs."'));
    assert.notEqual(readFileSync(reviews, 'utf8'), text, 'the quote was edited');
    const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', '2026-11-20T19:00:00Z', ...viaFixture(fixture), ...FLAGS, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const last = rowsOf(readFileSync(quoteFile, 'utf8')).at(-1) as Record<string, unknown>;
    assert.deepEqual([last.programId, last.outcome, last.quoteSha256], ['link-8', 'found', quoteDigest('Eligible homeowners may receive up to $12,500 for home repairs.')]);
    assert.equal((JSON.parse(lastLine(run.stdout)) as { quotes: { checked: number } }).quotes.checked, 1);
    assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0);
  });
});

describe('hra links check, quote checks interrupted, resumed and dry', () => {
  it('leaves complete lines when killed; validate passes; a re-run checks exactly the quotes left', async () => {
    const fixture = await startLinkFixture();
    try {
      const count = 14;
      const urls = Array.from({ length: count }, (_, i) => `http://slow.test/slow/30/q${i}`);
      // The fixture's generic page says "Apply now.": that is the quote.
      const corpus = writeQuoteCorpus(join(work, 'killed'), urls, urls.map(() => 'Apply now.'), urls.map(() => false));
      const quoteFile = join(corpus, 'evidence/quote-checks.ndjson');
      writeFileSync(quoteFile, '');
      const args = ['links', 'check', '--corpus', corpus, '--at', AT, ...viaFixture(fixture), '--per-host', '1', '--host-interval-ms', '40', '--timeout-ms', '3000'];
      const child = spawnHra(args);
      const finished = finishedRun(child);
      const slowChecks = () => rowsOf(readFileSync(quoteFile, 'utf8')).filter((row) => String(row.url).includes('slow.test'));
      for (let waited = 0; slowChecks().length < 4; waited += 20) {
        assert.ok(waited < 30_000, 'the run appended 4 slow quote checks within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGKILL');
      assert.equal((await finished).signal, 'SIGKILL');
      const afterKill = readFileSync(quoteFile, 'utf8');
      assert.ok(afterKill.endsWith('\n'), 'complete lines only');
      const done = slowChecks().length;
      assert.ok(done >= 4 && done < count, `killed after ${done} of ${count}`);
      assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0, 'the corpus is valid after the kill');

      const resumed = await runHraAsync([...args, '--json']);
      assert.equal(resumed.status, 0, resumed.stderr);
      const slow = slowChecks();
      assert.deepEqual(slow.map((row) => row.url).sort(), [...urls].sort(), 'every quote exactly once across the two runs');
      assert.ok(slow.every((row) => row.outcome === 'found'));
      assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0);
    } finally {
      await fixture.close();
    }
  });

  it('prints the quote checks instead of appending them with --dry-run', async () => {
    const fixture = await startLinkFixture({ answer: await createQuotePages() });
    try {
      const cases = QUOTE_CASES.filter((c) => c.path === '/amount-changed' || c.path === '/flyer.pdf');
      const corpus = writeQuoteCorpus(join(work, 'dry'), cases.map((c) => urlOf(c.path)), cases.map((c) => c.quote), cases.map(() => true));
      const files = ['evidence/quote-checks.ndjson', 'evidence/link-checks.ndjson'].map((file) => join(corpus, file));
      writeFileSync(files[0] as string, '');
      const before = files.map((file) => readFileSync(file, 'utf8'));
      const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', AT, ...viaFixture(fixture), ...FLAGS, '--dry-run', '--url', urlOf('/amount-changed'), '--url', urlOf('/flyer.pdf'), '--json']);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(files.map((file) => readFileSync(file, 'utf8')), before, 'nothing appended');
      const printed = run.stdout.trimEnd().split('\n').slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
      const quotes = printed.filter((row) => 'quoteSha256' in row).map((row) => [row.url, row.outcome]).sort();
      assert.deepEqual(quotes, [[urlOf('/amount-changed'), 'not-found'], [urlOf('/flyer.pdf'), 'found']]);
      assert.equal(printed.filter((row) => !('quoteSha256' in row)).length, 2, 'and the two link attempts');
      assert.deepEqual((JSON.parse(lastLine(run.stdout)) as { quotes: unknown }).quotes, { checked: 2, fresh: 0, appended: 0, outcomes: { found: 1, 'not-found': 1, inconclusive: 0 }, extracted: 2, reused: 0 });
      assert.equal((await runHraAsync(['validate', '--corpus', corpus])).status, 0);
    } finally {
      await fixture.close();
    }
  });
});
