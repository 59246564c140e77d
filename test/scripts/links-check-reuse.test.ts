/**
 * Verdict reuse end to end (issue 39 item 1): the real CLI checking the quote fixture pages through the
 * loopback fixture proxy two weeks running. An unchanged second week extracts nothing and carries every
 * verdict forward, each line naming today's revisit and the line it reuses; a changed page is judged anew;
 * `hra quotes replay --verify` finds 0 differences over the reused lines, and names an edited one.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { markQuotesChecked, writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { createQuotePages, QUOTE_CASES, QUOTE_HOST } from '../support/quote-fixture-pages.ts';
import { runHraAsync, stderrLines } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-links-reuse-');
after(() => rmSync(work, { recursive: true, force: true }));
const WEEK_1 = '2026-11-20T06:00:00Z';
const WEEK_2 = '2026-11-27T06:00:00Z';
const WEEK_3 = '2026-12-04T06:00:00Z';
const FLAGS = ['--max-age-days', '6', '--host-interval-ms', '0', '--timeout-ms', '1500', '--retries', '0', '--per-host', '2', '--concurrency', '8', '--json'];
/** The pages whose quote check is conclusive: only these can be reused, so an unchanged week extracts none. */
const CONCLUSIVE = QUOTE_CASES.filter((c) => c.outcome !== 'inconclusive');
const urlOf = (path: string) => `http://${QUOTE_HOST}${path}`;
/** The page changed in the second week of the changed run; no other case redirects to it. */
const CHANGED = '/entities';

type Row = Record<string, unknown>;
const rowsOf = (file: string): Row[] => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Row);
const quoteFile = (corpus: string) => join(corpus, 'evidence/quote-checks.ndjson');
/** The fixture pages' lines in program order (a run appends them in completion order). */
const byProgram = (rows: Row[]) => [...rows].sort((a, b) => Number(String(a.programId).slice(5)) - Number(String(b.programId).slice(5)));
const fixtureLines = (corpus: string) => rowsOf(quoteFile(corpus)).filter((row) => String(row.url).startsWith(`http://${QUOTE_HOST}/`));

function writeCorpus(dir: string): string {
  const corpus = writeLinkTestCorpus(dir, { extraUrls: CONCLUSIVE.map((c) => urlOf(c.path)) });
  // The mini corpus's own amount reviews are kept out of both weeks, so every extraction counted is a fixture page's.
  markQuotesChecked(corpus, WEEK_3.slice(0, 10));
  const reviews = CONCLUSIVE.map((c, index) => ({
    city: 'alpha', programId: `link-${index + 1}`, reviewedAt: '2026-11-01', kind: 'amount', identityMatch: true, amountQuote: c.quote, quoteFoundInPage: true,
  }));
  appendFileSync(join(corpus, 'evidence/source-reviews.ndjson'), reviews.map((row) => `${JSON.stringify(row)}\n`).join(''));
  return corpus;
}

interface QuoteSummary { checked: number; extracted: number; reused: number; outcomes: Record<string, number> }
async function check(corpus: string, archive: string, at: string, fixture: LinkFixture): Promise<QuoteSummary> {
  const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', at, '--archive', archive, '--proxy', fixture.proxyUrl, ...FLAGS]);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { quotes: QuoteSummary }).quotes;
}

/** The verdict a line states, as replay compares it. */
const verdictOf = (row: Row) => [row.programId, row.outcome, row.textLength, row.textSha256, JSON.stringify(row.statedAmounts ?? null)];

describe('hra links check reusing verdicts of unchanged pages', () => {
  let fixture: LinkFixture;
  let changedFixture: LinkFixture;
  const where = { corpus: '', archive: '' };
  let week1: Row[] = [];
  let week2: Row[] = [];
  let second: QuoteSummary;
  let first: QuoteSummary;

  before(async () => {
    const pages = await createQuotePages();
    fixture = await startLinkFixture({ answer: pages });
    // The same pages, but one whose bytes moved (its quote still there): a new payload digest.
    changedFixture = await startLinkFixture({
      answer: (request: IncomingMessage, response: ServerResponse, target: URL) => {
        if (target.host === QUOTE_HOST && target.pathname === CHANGED) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          response.end(`<!doctype html><html><head><title>Home Repair Grant | City</title></head><body><h1>Home Repair Grant</h1><p>${CONCLUSIVE.find((c) => c.path === CHANGED)!.quote}</p><p>Updated this week.</p></body></html>`);
          return true;
        }
        return pages(request, response, target);
      },
    });
    where.corpus = writeCorpus(join(work, 'run', 'corpus'));
    where.archive = join(work, 'run', 'archive');
    first = await check(where.corpus, where.archive, WEEK_1, fixture);
    week1 = byProgram(fixtureLines(where.corpus));
    second = await check(where.corpus, where.archive, WEEK_2, fixture);
    week2 = byProgram(fixtureLines(where.corpus).slice(week1.length));
  });
  after(async () => {
    await fixture.close();
    await changedFixture.close();
  });

  it('the first week extracts every page and reuses nothing', () => {
    assert.equal(first.checked, CONCLUSIVE.length);
    assert.equal(first.reused, 0);
    assert.ok(first.extracted >= CONCLUSIVE.length, JSON.stringify(first));
    assert.deepEqual(week1.map((row) => row.outcome), CONCLUSIVE.map((c) => c.outcome));
  });

  it('an unchanged second week extracts nothing and gives the same verdicts, each line naming today\'s revisit and the line it reuses', () => {
    assert.deepEqual([second.checked, second.extracted, second.reused], [CONCLUSIVE.length, 0, CONCLUSIVE.length]);
    assert.deepEqual(week2.map(verdictOf), week1.map(verdictOf));
    const index = openArchiveIndex(where.archive, { readonly: true });
    try {
      for (const [at, row] of week2.entries()) {
        const reused = week1[at]!;
        assert.equal(row.checkedAt, WEEK_2.slice(0, 10));
        assert.deepEqual(row.reuses, { checkedAt: reused.checkedAt, warcRecordId: reused.warcRecordId });
        assert.notEqual(row.warcRecordId, reused.warcRecordId);
        assert.equal(row.payloadSha256, reused.payloadSha256);
        assert.equal(index.byRecordId(String(row.warcRecordId))?.type, 'revisit', String(row.url));
      }
    } finally {
      index.close();
    }
  });

  it('quotes replay --verify re-derives the reused lines like any other: 0 differ', async () => {
    const run = await runHraAsync(['quotes', 'replay', '--corpus', where.corpus, '--archive', where.archive, '--verify']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^(\d+) verdicts checked, \1 match, 0 differ\n$/);
  });

  it('a reused line edited to claim another verdict than the line it names is named by --verify', async () => {
    const copy = { corpus: join(work, 'edited', 'corpus'), archive: join(work, 'edited', 'archive') };
    cpSync(where.corpus, copy.corpus, { recursive: true });
    cpSync(where.archive, copy.archive, { recursive: true });
    // The reused line's date moved to a fetch that never was: the verdict still matches the bytes, the provenance does not.
    const rows = rowsOf(quoteFile(copy.corpus));
    const target = rows.findLast((row) => row.reuses !== undefined && row.url === urlOf('/verbatim'))!;
    target.reuses = { ...(target.reuses as Row), checkedAt: '2026-11-19' };
    writeFileSync(quoteFile(copy.corpus), rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    const run = await runHraAsync(['quotes', 'replay', '--corpus', copy.corpus, '--archive', copy.archive, '--verify']);
    assert.equal(run.status, 1, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^\d+ verdicts checked, \d+ match, 1 differ$/);
    assert.ok(lines[1]!.includes(`record ${String(target.warcRecordId)}: quote of alpha/${String(target.programId)} `), lines[1]);
    assert.ok(lines[1]!.endsWith(`re-derived nothing: the line it reuses (checked 2026-11-19, record ${String((target.reuses as Row).warcRecordId)}) is not in the corpus`), lines[1]);
    assert.equal(stderrLines(run).filter((line) => line.startsWith('hra: ')).length, 1, run.stderr);
  });

  it('a changed page is judged anew, the others still reused', async () => {
    const copy = { corpus: join(work, 'changed', 'corpus'), archive: join(work, 'changed', 'archive') };
    cpSync(where.corpus, copy.corpus, { recursive: true });
    cpSync(where.archive, copy.archive, { recursive: true });
    const before = fixtureLines(copy.corpus).length;
    const third = await check(copy.corpus, copy.archive, WEEK_3, changedFixture);
    assert.deepEqual([third.checked, third.extracted, third.reused], [CONCLUSIVE.length, 1, CONCLUSIVE.length - 1]);
    const week3 = fixtureLines(copy.corpus).slice(before);
    const judged = week3.filter((row) => row.reuses === undefined);
    assert.deepEqual(judged.map((row) => [row.url, row.outcome]), [[urlOf(CHANGED), 'found']]);
    // The reused lines of week 3 name week 2's lines, which reused week 1's: a chain ending in an extraction.
    assert.ok(week3.filter((row) => row.reuses !== undefined).every((row) => (row.reuses as Row).checkedAt === WEEK_2.slice(0, 10)));
  });
});
