import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { programPage, recordUrl, writeReviewTestCorpus } from '../support/review-test-corpus.ts';
import { runHra } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const ids = ['none', 'stale', 'soon', 'fresh', 'moved', 'amount', 'changed', 'samepage'];
const record = (id: string) => ({ id, name: `${id} grant`, maxAmount: 5000, page: programPage(`${id} grant`, 'Up to $5,000 per home.') });

describe('hra reviews due', () => {
  let dir: string;
  let corpus: string;
  before(async () => {
    dir = makeTempDir('hra-reviews-due-');
    ({ corpus } = await writeReviewTestCorpus(dir, ids.map(record), '2026-11-10'));
    const links = readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { url: string; payloadSha256: string; warcRecordId: string });
    const seen = (id: string) => links.find((line) => line.url === recordUrl(id))!;
    const review = (id: string, reviewedAt: string, extra: Record<string, unknown> = {}) => JSON.stringify({ city: 'alpha', programId: id, reviewedAt, kind: 'identity', identityMatch: true, ...extra });
    appendFileSync(join(corpus, 'evidence/source-reviews.ndjson'), [
      review('stale', '2026-08-01'),
      review('soon', '2026-08-15'), // stale on 2026-11-13, within 14 days of 2026-11-10
      review('fresh', '2026-11-01'),
      review('moved', '2026-11-01'),
      review('amount', '2026-11-01', { kind: 'amount', amountQuote: 'Up to $5,000 per home.', quoteFoundInPage: true }),
      review('changed', '2026-11-01', { reviewer: { kind: 'person', name: 'P' }, warcRecordId: seen('changed').warcRecordId, payloadSha256: 'e'.repeat(64) }),
      review('samepage', '2026-11-01', { reviewer: { kind: 'person', name: 'P' }, warcRecordId: seen('samepage').warcRecordId, payloadSha256: seen('samepage').payloadSha256 }),
    ].join('\n') + '\n');
    appendFileSync(join(corpus, 'corrections.ndjson'), [
      JSON.stringify({ city: 'alpha', programId: 'moved', field: 'url', value: recordUrl('moved'), reason: 'moved', date: '2026-11-05' }),
      JSON.stringify({ city: 'alpha', programId: 'amount', field: 'maxAmount', value: 6000, reason: 'raised', date: '2026-11-05' }),
    ].join('\n') + '\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists each record due with its reason, tiers and date, soonest first, then the counts', () => {
    const run = runHra(['reviews', 'due', '--corpus', corpus]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/)), [
      ['-', 'no-review', 'alpha/none', 'link-verified -> link-verified'],
      ['2026-10-30', 'stale', 'alpha/stale', 'link-verified -> link-verified'],
      ['2026-11-05', 'url-corrected', 'alpha/moved', 'model-identity-reviewed -> link-verified'],
      ['2026-11-05', 'amount-corrected', 'alpha/amount', 'model-identity-reviewed -> link-verified'],
      ['2026-11-10', 'page-changed', 'alpha/changed', 'model-identity-reviewed -> link-verified'],
      ['2026-11-13', 'turns-stale', 'alpha/soon', 'model-identity-reviewed -> link-verified'],
      ['6 records due at 2026-11-10 (within 14 days): no-review 1, stale 1, url-corrected 1, amount-corrected 1, page-changed 1, turns-stale 1'],
    ]);
  });

  it('agrees with links report on what turns stale', () => {
    const due = JSON.parse(runHra(['reviews', 'due', '--corpus', corpus, '--json']).stdout) as { due: Array<{ programId: string; reason: string; date: string }> };
    const report = JSON.parse(runHra(['links', 'report', '--corpus', corpus, '--json']).stdout) as { staleSoon: Array<{ programId: string; staleOn: string }> };
    assert.deepEqual(due.due.filter((item) => item.reason === 'turns-stale').map((item) => [item.programId, item.date]), report.staleSoon.map((item) => [item.programId, item.staleOn]));
    assert.equal(report.staleSoon.length, 1);
  });

  it('moves with --at and --within-days', () => {
    const run = runHra(['reviews', 'due', '--corpus', corpus, '--at', '2026-11-20', '--within-days', '0', '--json']);
    const result = JSON.parse(run.stdout) as { counts: Record<string, number> };
    assert.equal(result.counts.stale, 2);
    assert.equal(result.counts['turns-stale'], 0);
  });

  it('refuses a bad --at or --within-days on one line', () => {
    for (const args of [['--at', '2026-13-01'], ['--within-days', '-1']]) {
      const run = runHra(['reviews', 'due', '--corpus', corpus, ...args]);
      assert.equal(run.status, 1);
      assert.match(run.stderr.trim().split('\n').at(-1)!, new RegExp(`^hra: ${args[0]} `));
    }
  });
});
