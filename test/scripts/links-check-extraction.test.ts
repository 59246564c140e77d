/**
 * `hra links check` and its extraction children, end to end through the loopback fixture proxy: a
 * SIGTERM or SIGINT to the run while a child is busy on a slow page ends the child with it, instead of
 * leaving it to finish the page on its own.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { makeTestPdf } from '../support/make-test-pdf.ts';
import { finishedRun, spawnHra } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';
import { processAlive } from '../support/process-alive.ts';

const SLOW_PDF = 'http://slow.test/guidelines.pdf';
const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';

/** The link test corpus plus one alpha program citing SLOW_PDF, with a fresh amount review. */
function writeCorpus(dir: string): string {
  const corpus = writeLinkTestCorpus(dir, { extraUrls: [SLOW_PDF] });
  const alpha = join(corpus, 'programs/alpha.ndjson');
  const rows = readFileSync(alpha, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  writeFileSync(alpha, rows.map((row) => `${JSON.stringify(row.id === 'link-1' ? { ...row, maxAmount: 10000, maxAmountLabel: 'Up to $10,000', maxAmountLabel_es: 'Hasta $10,000' } : row)}\n`).join(''));
  const review = { city: 'alpha', programId: 'link-1', reviewedAt: '2026-11-01', kind: 'amount', identityMatch: true, amountQuote: QUOTE, quoteFoundInPage: true };
  appendFileSync(join(corpus, 'evidence/source-reviews.ndjson'), `${JSON.stringify(review)}\n`);
  return corpus;
}

/** The processes below `pid` whose command line names `needle`. */
function childrenNamed(pid: number, needle: string): number[] {
  const found: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const word of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/)) {
      if (word === '') continue;
      try {
        if (readFileSync(`/proc/${word}/cmdline`, 'utf8').includes(needle)) found.push(Number(word));
      } catch {
        // Gone between the listing and the read.
      }
    }
  }
  return found;
}

const alive = processAlive;

async function until<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  for (const end = performance.now() + ms; performance.now() < end;) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return probe();
}

describe('hra links check, extraction children', () => {
  let fixture: LinkFixture;
  let corpus: string;
  before(async () => {
    const pdf = Buffer.from(await makeTestPdf({ kind: 'slow', operations: 4_000_000 }));
    fixture = await startLinkFixture({
      answer(request, response, target) {
        if (target.href !== SLOW_PDF) return false;
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(request.method === 'HEAD' ? undefined : pdf);
        return true;
      },
    });
    corpus = writeCorpus(join(makeTempDir('hra-links-extraction-'), 'corpus'));
  });
  after(() => fixture.close());

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`ends a child busy on a slow PDF when the run gets ${signal}`, async () => {
      const run = spawnHra(['links', 'check', '--corpus', corpus, '--at', '2026-11-20T06:00:00Z', '--proxy', fixture.proxyUrl, '--url', SLOW_PDF, '--dry-run']);
      const finished = finishedRun(run);
      const child = await until(() => childrenNamed(run.pid!, 'page-text-child')[0], 30_000);
      assert.ok(child !== undefined, 'an extraction child started');
      // Let the child load and take the page before the signal.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      run.kill(signal);
      const ended = await finished;
      assert.equal(ended.signal, signal, ended.stderr);
      assert.ok(await until(() => (alive(child) ? undefined : true), 2000), `child ${child} outlived the run`);
    });
  }
});
