/**
 * `hra reviews export` and `hra reviews import` on a copy of the mini corpus whose pages are archived by
 * the archive's own writer: the worksheet carries the archived page and its passages, and the import
 * checks a person's quote against that page's visible text before appending anything.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { REVIEW_COLUMNS, type ReviewRow } from '../../build/reviews/review-worksheet.ts';
import { readWorksheet } from '../../build/worksheets/read-worksheet.ts';
import { writeWorksheet } from '../../build/worksheets/write-worksheet.ts';
import { runReviewsExport, runReviewsImport } from '../../scripts/commands/reviews-worksheet-actions.ts';
import { copyCorpusWith } from '../support/copy-corpus-with.ts';
import { archiveRun } from '../support/evidence-archive-fixture.ts';
import { lastJsonLine, runHra } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

// The amount the hidden paragraph states is one a model could quote; the visible text never offers it.
const ROOF_PAGE = '<html><head><title>Alpha Roof Repair Grant</title></head><body><h1>Alpha Roof Repair Grant</h1>'
  + '<p>Homeowners may receive grants of up to $15,000 for roof repair.</p>'
  + '<p style="display:none">Grants of up to $90,000 for roof repair.</p></body></html>';

describe('hra reviews export and hra reviews import', () => {
  let corpus = '';
  let archive = '';
  let dir = '';
  let worksheet = '';
  const reviews = () => readFileSync(join(corpus, 'evidence/source-reviews.ndjson'), 'utf8');
  before(async () => {
    corpus = copyCorpusWith({});
    dir = makeTempDir('hra-reviews-sheet-');
    archive = join(dir, 'archive');
    worksheet = join(dir, 'reviews.csv');
    await archiveRun(archive, corpus, new Date('2026-11-10T08:00:00Z'), [{ url: 'https://alpha.example.org/roof', body: ROOF_PAGE }]);
  });

  it('writes one row per record asked for, with the archived page and its passages, and names the record without one', async () => {
    await runReviewsExport({ corpus, archive, out: worksheet, only: ['alpha/a-roof', 'beta/b-weather'] });
    const rows = readWorksheet(worksheet, worksheet, REVIEW_COLUMNS).map((row) => row.cells);
    assert.deepEqual(rows.map((row) => [row.city, row.programId, row.url]), [['alpha', 'a-roof', 'https://alpha.example.org/roof'], ['beta', 'b-weather', 'https://beta.example.org/wx']]);
    assert.match(rows[0]!.warcRecordId, /^<urn:uuid:[0-9a-f-]{36}>$/);
    assert.match(rows[0]!.passages, /grants of up to \$15,000 for roof repair/);
    assert.doesNotMatch(rows[0]!.passages, /90,000/, 'hidden text is never offered');
    assert.deepEqual([rows[1]!.warcRecordId, rows[1]!.passages], ['', '']);
    assert.ok(rows.every((row) => row.identity === '' && row.amountQuote === '' && row.statedAmount === '' && row.note === ''));
    await assert.rejects(runReviewsExport({ corpus, archive, out: worksheet }), /already exists/);
    await assert.rejects(runReviewsExport({ corpus, archive, out: join(dir, 'x.csv'), only: ['alpha/nope'] }), /--only alpha\/nope: not a served record/);
  });

  it('--due writes only the records hra reviews due lists, in its order, under its --at and --within-days', async () => {
    const names = async (flags: { at?: string; withinDays?: string; only?: string[] }) => {
      const out = join(dir, `due-${Math.random().toString(16).slice(2)}.csv`);
      await runReviewsExport({ corpus, archive, out, due: true, ...flags });
      return readWorksheet(out, out, REVIEW_COLUMNS).map((row) => `${row.cells.city}/${row.cells.programId}`);
    };
    const queue = lastJsonLine(runHra(['reviews', 'due', '--corpus', corpus, '--json'])) as { due: Array<{ city: string; programId: string }> };
    const listed = queue.due.map((item) => `${item.city}/${item.programId}`);
    assert.deepEqual(listed, ['alpha/a-lead', 'alpha/a-ramp', 'beta/state-loan', 'gamma/g-grant', 'beta/b-weather']);
    assert.deepEqual(await names({}), listed, 'a-roof is reviewed and not due, so it is left out');
    // b-weather's review turns stale on 2026-08-30: not within 14 days of 2026-08-01, within 30.
    assert.deepEqual(await names({ at: '2026-08-01' }), listed.slice(0, 4));
    assert.deepEqual(await names({ at: '2026-08-01', withinDays: '30' }), listed);
    assert.deepEqual(await names({ only: ['beta/b-weather', 'alpha/a-roof', 'alpha/a-ramp'] }), ['alpha/a-ramp', 'beta/b-weather']);
    await assert.rejects(runReviewsExport({ corpus, archive, out: join(dir, 'y.csv'), due: true, at: '2026-8-1' }), /--at "2026-8-1": must be a date/);
    await assert.rejects(runReviewsExport({ corpus, archive, out: join(dir, 'y.csv'), at: '2026-08-01' }), /give them with --due/);
  });

  const filled = (edit: (row: ReviewRow) => Partial<ReviewRow>): string => {
    const rows = readWorksheet(worksheet, worksheet, REVIEW_COLUMNS).map((row) => row.cells);
    const file = join(dir, `filled-${Math.random().toString(16).slice(2)}.csv`);
    writeFileSync(file, `\uFEFF${writeWorksheet(REVIEW_COLUMNS, rows.map((row) => (row.programId === 'a-roof' ? { ...row, ...edit(row) } : row)))}`);
    return file;
  };
  const roofReview = { identity: 'match', amountQuote: 'grants of up to $15,000 for roof repair', statedAmount: '15,000', note: 'checked, "heading" and body,\nboth' };
  const refusals: [what: string, edit: (row: ReviewRow) => Partial<ReviewRow>, message: RegExp][] = [
    ['a quote of hidden text', () => ({ ...roofReview, amountQuote: 'Grants of up to $90,000 for roof repair', statedAmount: '90000' }), /row 2 column amountQuote: not found in the visible text of the archived page <urn:uuid:/],
    ['a quote that states another amount', () => ({ ...roofReview, statedAmount: '5000' }), /row 2 column amountQuote: does not state 5000/],
    ['a bad verdict', () => ({ identity: 'yes' }), /row 2 column identity: must be one of match, mismatch, unsure, found "yes"/],
    ['an unknown record', () => ({ ...roofReview, programId: 'a-roofx' }), /row 2 column programId: alpha\/a-roofx is not a served record of the corpus/],
    ['an edited page id', (row) => ({ ...roofReview, warcRecordId: row.warcRecordId.replace(/[0-9a-f]>$/, (c) => (c === '0>' ? '1>' : '0>')) }), /row 2 column warcRecordId: the record's latest archived page is <urn:uuid:/],
    ['a quote on a mismatch', () => ({ ...roofReview, identity: 'mismatch' }), /row 2 column amountQuote: an amount quote needs identity match/],
  ];
  for (const [what, edit, message] of refusals) {
    it(`refuses ${what} by its row and appends nothing`, async () => {
      const before = reviews();
      await assert.rejects(runReviewsImport(filled(edit), { corpus, archive, reviewer: 'A. Person', at: '2026-11-16' }), message);
      assert.equal(reviews(), before);
    });
  }

  it('appends a person\'s amount review bound to the archived page, through the real CLI', () => {
    const before = reviews();
    const file = filled(() => roofReview);
    const run = runHra(['reviews', 'import', file, '--corpus', corpus, '--archive', archive, '--reviewer', 'A. Person', '--at', '2026-11-16', '--json']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(lastJsonLine(run), { ok: true, appended: 1, unsure: 0, unfilled: 1 });
    const appended = reviews().slice(before.length).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(appended.length, 1);
    const sheet = readWorksheet(worksheet, worksheet, REVIEW_COLUMNS);
    assert.deepEqual(appended[0], {
      city: 'alpha', programId: 'a-roof', reviewedAt: '2026-11-16', kind: 'amount', identityMatch: true, amountQuote: roofReview.amountQuote, quoteFoundInPage: true,
      reviewer: { kind: 'person', name: 'A. Person' }, warcRecordId: sheet[0]!.cells.warcRecordId, payloadSha256: appended[0]!.payloadSha256,
    });
    assert.match(String(appended[0]!.payloadSha256), /^[0-9a-f]{64}$/);
    assert.equal(runHra(['validate', '--corpus', corpus]).status, 0, 'the corpus still validates');
  });
});
