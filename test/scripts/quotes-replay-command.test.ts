/**
 * `hra quotes replay` end to end: the real CLI re-deriving the verdicts of a real `links check` run that
 * archived what it fetched through the loopback fixture proxy (test/support/quote-fixture-pages.ts, one
 * page per row of the outcome table). `--verify` finds no difference; a payload edited in the archive, or a
 * verdict line edited in the corpus, makes it fail naming the record; the maintainer's mode appends only
 * what differs, once; bad archives fail on one `hra:` line naming file and record.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, cpSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';
import { readArchivedRecord } from '../../build/archive/read-archived-record.ts';
import type { QuoteCheck } from '../../build/corpus/corpus-types.ts';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { latestConclusiveQuoteCheck } from '../../build/derive/mechanical-quote-verdict.ts';
import { EXTRACTOR_VERSION } from '../../build/quotes/extractor-version.ts';
import { editArchivedPayload } from '../support/edit-archived-payload.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { extractPageText } from '../../build/quotes/extract-page-text.ts';
import { judgePageText } from '../../build/quotes/judge-page-text.ts';
import { makeTestPdf } from '../support/make-test-pdf.ts';
import { createQuotePages, OCR_LAYERS, QUOTE, QUOTE_CASES, QUOTE_HOST } from '../support/quote-fixture-pages.ts';
import { runHraAsync, stderrLines, type HraRun } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-quotes-replay-');
after(() => rmSync(work, { recursive: true, force: true }));
const AT = '2026-11-20T06:00:00Z';
const REVIEWED_AT = '2026-11-01';
const FLAGS = ['--max-age-days', '6', '--host-interval-ms', '0', '--timeout-ms', '1500', '--retries', '0', '--per-host', '2', '--concurrency', '8'];

const rowsOf = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
/** The extractor version before issue 40's layout and hidden-text rules. */
const VERSION_1 = '1+pdfjs-dist-5.4.449';
/** The extractor version before issue 40's OCR-layer and unmapped-glyph rules. */
const VERSION_2 = '2+pdfjs-dist-5.4.449';
/** The extractor version before a hidden PDF string that pdf.js splits over several items was cut whole (issue 40 item 7). */
const VERSION_3 = '3+pdfjs-dist-5.4.449';
const urlOf = (path: string) => `http://${QUOTE_HOST}${path}`;
/** A link checked alone, read only up to its first h1, whose verdict rests on that h1 (`404`). */
const HEADING_404 = 'http://heading.test/soft-404-heading';

/** The link test corpus plus one alpha program per fixture page, each with a fresh amount review quoting it. */
function writeQuoteCorpus(dir: string): string {
  const corpus = writeLinkTestCorpus(dir, { extraUrls: [...QUOTE_CASES.map((c) => urlOf(c.path)), HEADING_404] });
  const reviews: Array<Record<string, unknown>> = QUOTE_CASES.map((c, index) => ({
    city: 'alpha', programId: `link-${index + 1}`, reviewedAt: REVIEWED_AT, kind: 'amount', identityMatch: true, amountQuote: c.quote, quoteFoundInPage: true,
  }));
  // HEADING_404's record is reviewed too, so no review is due on it and its page is read as a link alone (to its h1).
  reviews.push({ city: 'alpha', programId: `link-${QUOTE_CASES.length + 1}`, reviewedAt: REVIEWED_AT, kind: 'identity', identityMatch: true });
  appendFileSync(join(corpus, 'evidence/source-reviews.ndjson'), reviews.map((row) => `${JSON.stringify(row)}\n`).join(''));
  return corpus;
}

/** The text of the fixture's OCR-layer page at `path`, as the extractor reads it (the fixture's bytes, made again). */
async function ocrPageText(path: keyof typeof OCR_LAYERS) {
  const body = await makeTestPdf({ kind: 'ocr-scan', lines: [...OCR_LAYERS[path]] });
  const page = await extractPageText({ body, contentType: 'application/pdf', complete: true });
  assert.equal(page.kind, 'text');
  return page as Extract<typeof page, { kind: 'text' }>;
}

/** A copy of the run's corpus and archive that a test may damage. */
function copyOfRun(name: string, source: { corpus: string; archive: string }): { corpus: string; archive: string } {
  const corpus = join(work, name, 'corpus');
  const archive = join(work, name, 'archive');
  cpSync(source.corpus, corpus, { recursive: true });
  cpSync(source.archive, archive, { recursive: true });
  return { corpus, archive };
}

const replay = (where: { corpus: string; archive: string }, more: readonly string[] = []) =>
  runHraAsync(['quotes', 'replay', '--corpus', where.corpus, '--archive', where.archive, ...more]);

/** Exit 1 and the last stderr line, the only `hra:` one. */
function failureLine(run: HraRun): string {
  assert.equal(run.status, 1, run.stderr);
  const lines = stderrLines(run).filter((line) => line.startsWith('hra: '));
  assert.equal(lines.length, 1, run.stderr);
  return lines[0]!;
}

/**
 * Writes the quote-check lines as an older extractor wrote them and runs `replay --verify` over them: it must
 * fail naming exactly `count` of the `total` verdicts; returns their lines, one each.
 */
async function verifyNamesMoved(where: { corpus: string; archive: string }, file: string, rows: readonly object[], total: number, count: number): Promise<string[]> {
  writeFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  const verify = await replay(where, ['--verify']);
  assert.match(failureLine(verify), new RegExp(`^hra: ${count} of ${total} verdicts differ from what their archived pages give$`));
  const [counts, ...moved] = verify.stdout.trimEnd().split('\n');
  assert.equal(counts, `${total} verdicts checked, ${total - count} match, ${count} differ`);
  assert.equal(moved.length, count, verify.stdout);
  return moved;
}

/** Runs replay to append what it re-derives; returns the lines appended after the first `before`. */
async function replayAppended(where: { corpus: string; archive: string }, file: string, before: number) {
  const run = await replay(where, ['--json']);
  assert.equal(run.status, 0, run.stderr);
  return rowsOf(readFileSync(file, 'utf8')).slice(before);
}

/**
 * Edits the quote check of the page whose amount changed to claim the quote was there (the page states
 * $12,500), as a tampered or mistaken corpus would; returns the file, its rows as they were, and that line.
 */
function claimFoundOnChangedPage(corpus: string) {
  const file = join(corpus, 'evidence/quote-checks.ndjson');
  const rows = rowsOf(readFileSync(file, 'utf8'));
  const target = rows.find((row) => row.url === urlOf('/amount-changed'))!;
  target.outcome = 'found';
  delete target.statedAmounts;
  writeFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  return { file, rows, target };
}

describe('hra quotes replay after an archived links check', () => {
  let fixture: LinkFixture;
  const original = { corpus: '', archive: '' };
  let quoteLines: Array<Record<string, unknown>> = [];
  let archivedVerdicts = 0;

  before(async () => {
    fixture = await startLinkFixture({ answer: await createQuotePages() });
    original.corpus = writeQuoteCorpus(join(work, 'run', 'corpus'));
    original.archive = join(work, 'run', 'archive');
    const run = await runHraAsync(['links', 'check', '--corpus', original.corpus, '--at', AT, '--archive', original.archive, '--proxy', fixture.proxyUrl, ...FLAGS, '--json']);
    assert.equal(run.status, 0, run.stderr);
    quoteLines = rowsOf(readFileSync(join(original.corpus, 'evidence/quote-checks.ndjson'), 'utf8'));
    const linkLines = rowsOf(readFileSync(join(original.corpus, 'evidence/link-checks.ndjson'), 'utf8'));
    archivedVerdicts = [...quoteLines, ...linkLines].filter((line) => line.warcRecordId !== undefined).length;
  });
  after(() => fixture.close());

  it('the run archived the verdicts it wrote: every quote check names its record', () => {
    const fixtureLines = quoteLines.filter((line) => String(line.url).startsWith(`http://${QUOTE_HOST}/`));
    assert.equal(fixtureLines.length, QUOTE_CASES.length);
    const archivedQuotes = fixtureLines.filter((line) => line.warcRecordId !== undefined);
    // Every page answered, even one that never finished or broke off (archived as read, marked truncated).
    assert.deepEqual(fixtureLines.filter((line) => line.warcRecordId === undefined), []);
    assert.ok(archivedVerdicts > archivedQuotes.length);
  });

  it('a page read only up to its h1 is archived as that prefix (WARC-Truncated: length), which holds the h1 its verdict rests on', async () => {
    const line = rowsOf(readFileSync(join(original.corpus, 'evidence/link-checks.ndjson'), 'utf8')).findLast((row) => row.url === HEADING_404);
    assert.ok(line !== undefined && line.outcome !== 'live', JSON.stringify(line));
    const index = openArchiveIndex(original.archive, { readonly: true });
    try {
      const record = await readArchivedRecord(original.archive, index, line.warcRecordId as string);
      assert.equal(record.truncated, 'length');
      assert.match(Buffer.from(record.payload).toString(), /<title>City of Alpha<\/title>.*<h1>404<\/h1>$/);
    } finally {
      index.close();
    }
  });

  it('--verify re-derives every archived verdict and finds 0 differences', async () => {
    const run = await replay(original, ['--verify']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${archivedVerdicts} verdicts checked, ${archivedVerdicts} match, 0 differ\n`);
  });

  it('without --verify, nothing differs, so nothing is appended (and a re-run appends nothing either)', async () => {
    const where = copyOfRun('maintainer-same', original);
    const before = readFileSync(join(where.corpus, 'evidence/quote-checks.ndjson'), 'utf8');
    for (let round = 0; round < 2; round += 1) {
      const run = await replay(where);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, `${archivedVerdicts} verdicts checked, ${archivedVerdicts} match, 0 differ\n0 re-derived quote checks appended to evidence/quote-checks.ndjson\n`);
    }
    assert.equal(readFileSync(join(where.corpus, 'evidence/quote-checks.ndjson'), 'utf8'), before);
  });

  it('a payload edited in the archive makes --verify fail, naming the file and the record', async () => {
    const where = copyOfRun('edited-payload', original);
    // A page fetched once (the redirect's target, /verbatim, is fetched twice: its second record is a revisit).
    const line = quoteLines.find((row) => row.url === urlOf('/inline-tags'))!;
    const recordId = String(line.warcRecordId);
    editArchivedPayload(where.archive, recordId, '$10,000', '$90,000');
    const run = await replay(where, ['--verify']);
    const index = openArchiveIndex(where.archive, { readonly: true });
    const file = index.byRecordId(recordId)!.file;
    index.close();
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(failureLine(run), new RegExp(`^hra: ${escaped(file)} record ${escaped(recordId)}: payload sha256 [0-9a-f]{64} does not match its digest [0-9a-f]{64}`));
    const [counts, ...differences] = run.stdout.trimEnd().split('\n');
    assert.match(counts!, new RegExp(`^${archivedVerdicts} verdicts checked, \\d+ match, [1-9]\\d* differ$`));
    assert.ok(differences.length > 0 && differences.every((difference) => difference.startsWith(`${file} record ${recordId}: `)), run.stdout);
  });

  it('a verdict line edited in the corpus makes --verify fail, naming the record', async () => {
    const where = copyOfRun('edited-line', original);
    const { target } = claimFoundOnChangedPage(where.corpus);
    const run = await replay(where, ['--verify']);
    assert.match(failureLine(run), new RegExp(`^hra: 1 of ${archivedVerdicts} verdicts differ from what their archived pages give$`));
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `${archivedVerdicts} verdicts checked, ${archivedVerdicts - 1} match, 1 differ`);
    assert.equal(lines.length, 2);
    assert.ok(lines[1]!.includes(`record ${String(target.warcRecordId)}: quote of alpha/`), lines[1]);
    assert.match(lines[1]!, /: recorded found \(.*\), re-derived not-found \(.*amounts \$12,500 \$500\)$/);
  });

  it('the maintainer\'s mode appends one re-derived line where the verdict differs, the derivation takes it, and a re-run appends nothing', async () => {
    const where = copyOfRun('maintainer-differs', original);
    const { file, rows, target } = claimFoundOnChangedPage(where.corpus);

    const first = await replay(where, ['--json']);
    assert.equal(first.status, 0, first.stderr);
    const summary = JSON.parse(first.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    assert.deepEqual([summary.ok, summary.checked, summary.differ, summary.appended], [true, archivedVerdicts, 1, 1]);
    const appended = rowsOf(readFileSync(file, 'utf8')).slice(rows.length);
    assert.equal(appended.length, 1);
    assert.deepEqual(
      { outcome: appended[0]!.outcome, checkedAt: appended[0]!.checkedAt, warcRecordId: appended[0]!.warcRecordId, extractor: appended[0]!.extractor, rederived: appended[0]!.rederived },
      { outcome: 'not-found', checkedAt: target.checkedAt, warcRecordId: target.warcRecordId, extractor: EXTRACTOR_VERSION, rederived: { extractor: EXTRACTOR_VERSION, from: target.checkedAt } },
    );
    // The derivation now rests on the re-derived line, though it shares its date with the edited one.
    const corpus = loadCorpus(where.corpus);
    const review = corpus.sourceReviews.find((row) => row.programId === target.programId && row.kind === 'amount')!;
    assert.equal(latestConclusiveQuoteCheck(review, urlOf('/amount-changed'), corpus.quoteChecks as QuoteCheck[])?.outcome, 'not-found');

    const second = await replay(where);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, `${archivedVerdicts} verdicts checked, ${archivedVerdicts} match, 0 differ\n0 re-derived quote checks appended to evidence/quote-checks.ndjson\n`);
    assert.equal(rowsOf(readFileSync(file, 'utf8')).length, rows.length + 1);
    assert.equal((await replay(where, ['--verify'])).status, 0);
  });

  it('an archive whose verdict lines version 1 of the extractor wrote: replay re-derives the verdicts that moved, each listed, and appends them', async () => {
    // The lines as EXTRACTOR_VERSION 1 wrote them for these pages (issue 40): the two-column PDF read across
    // its columns (not found), the quote in a menu hidden by a <style> class read as visible (found).
    const where = copyOfRun('written-by-version-1', original);
    const file = join(where.corpus, 'evidence/quote-checks.ndjson');
    const rows = rowsOf(readFileSync(file, 'utf8'));
    const columns = rows.find((row) => row.url === urlOf('/two-columns.pdf'))!;
    const hidden = rows.find((row) => row.url === urlOf('/hidden-by-class'))!;
    for (const row of rows) if (row.extractor !== undefined) row.extractor = VERSION_1;
    Object.assign(columns, { outcome: 'not-found', statedAmounts: [{ text: '$10,000', value: 10000 }] });
    Object.assign(hidden, { outcome: 'found' });
    delete hidden.statedAmounts;
    const moved = await verifyNamesMoved(where, file, rows, archivedVerdicts, 2);
    const line = (recordId: unknown) => moved.find((difference) => difference.includes(`record ${String(recordId)}: `)) ?? '';
    assert.match(line(columns.warcRecordId), /: recorded not-found \(.*\), re-derived found/);
    assert.match(line(hidden.warcRecordId), /: recorded found.*, re-derived not-found \(.*amounts \$12,500\)$/);

    const appended = await replayAppended(where, file, rows.length);
    assert.deepEqual(appended.map((row) => [row.url, row.outcome, row.extractor]).sort(), [
      [urlOf('/hidden-by-class'), 'not-found', EXTRACTOR_VERSION],
      [urlOf('/two-columns.pdf'), 'found', EXTRACTOR_VERSION],
    ]);
    assert.equal((await replay(where, ['--verify'])).status, 0);
  });

  it('an archive whose verdict lines version 2 of the extractor wrote: replay re-derives the OCR-layer verdicts that moved, each listed', async () => {
    // The lines as EXTRACTOR_VERSION 2 wrote them (issue 40 item 1): the quote on a scan's OCR layer, with its
    // missing spaces and letter confusions, not found; the changed amount on another OCR layer not found,
    // conclusively, where version 3 finds the first and leaves the second inconclusive.
    const where = copyOfRun('written-by-version-2', original);
    const file = join(where.corpus, 'evidence/quote-checks.ndjson');
    const rows = rowsOf(readFileSync(file, 'utf8'));
    const scan = rows.find((row) => row.url === urlOf('/ocr-scan.pdf'))!;
    const changed = rows.find((row) => row.url === urlOf('/ocr-amount-changed.pdf'))!;
    assert.deepEqual([scan.outcome, changed.outcome, changed.reason], ['found', 'inconclusive', 'OCR text layer']);
    const measured = judgePageText(await ocrPageText('/ocr-amount-changed.pdf'), [QUOTE]);
    for (const row of rows) if (row.extractor !== undefined) row.extractor = VERSION_2;
    Object.assign(scan, { outcome: 'not-found', statedAmounts: [{ text: '$10,000', value: 10000 }] });
    Object.assign(changed, { outcome: 'not-found', textLength: measured.textLength, textSha256: measured.textSha256, statedAmounts: [{ text: '$12,500', value: 12500 }] });
    delete changed.reason;
    const moved = await verifyNamesMoved(where, file, rows, archivedVerdicts, 2);
    const line = (recordId: unknown) => moved.find((difference) => difference.includes(`record ${String(recordId)}: `)) ?? '';
    assert.match(line(scan.warcRecordId), /: recorded not-found \(.*\), re-derived found/);
    assert.match(line(changed.warcRecordId), /: recorded not-found \(.*amounts \$12,500\), re-derived inconclusive$/);

    const appended = await replayAppended(where, file, rows.length);
    assert.deepEqual(appended.map((row) => [row.url, row.outcome, row.extractor]).sort(), [
      [urlOf('/ocr-amount-changed.pdf'), 'inconclusive', EXTRACTOR_VERSION],
      [urlOf('/ocr-scan.pdf'), 'found', EXTRACTOR_VERSION],
    ]);
    assert.equal(appended.find((row) => row.url === urlOf('/ocr-amount-changed.pdf'))?.reason, 'OCR text layer');
    assert.equal((await replay(where, ['--verify'])).status, 0);
  });

  it('an archive whose verdict lines version 3 of the extractor wrote: replay re-derives the hidden-stamp verdict that moved, listed', async () => {
    // The line as EXTRACTOR_VERSION 3 wrote it: the old quote, in a white stamp pdf.js gives as several items,
    // left in the text and found, where version 4 cuts the whole stamp and finds the page's $12,500 instead.
    const where = copyOfRun('written-by-version-3', original);
    const file = join(where.corpus, 'evidence/quote-checks.ndjson');
    const rows = rowsOf(readFileSync(file, 'utf8'));
    const stamped = rows.find((row) => row.url === urlOf('/stamped.pdf'))!;
    assert.equal(stamped.outcome, 'not-found');
    for (const row of rows) if (row.extractor !== undefined) row.extractor = VERSION_3;
    Object.assign(stamped, { outcome: 'found' });
    delete stamped.statedAmounts;
    const moved = await verifyNamesMoved(where, file, rows, archivedVerdicts, 1);
    assert.ok(moved[0]!.includes(`record ${String(stamped.warcRecordId)}: `), moved[0]);
    assert.match(moved[0]!, /: recorded found.*, re-derived not-found \(.*amounts \$12,500\)$/);

    const appended = await replayAppended(where, file, rows.length);
    assert.deepEqual(appended.map((row) => [row.url, row.outcome, row.extractor]), [[urlOf('/stamped.pdf'), 'not-found', EXTRACTOR_VERSION]]);
    assert.equal((await replay(where, ['--verify'])).status, 0);
  });

  it('hra quotes check --warc judges one archived page of the run, read from its file without the index', async () => {
    for (const [path, expected] of [['/verbatim', 'found'], ['/amount-changed', 'not-found'], ['/moved', 'found']] as const) {
      const recordId = String(quoteLines.find((row) => row.url === urlOf(path))!.warcRecordId);
      const index = openArchiveIndex(original.archive, { readonly: true });
      const file = join(original.archive, index.byRecordId(recordId)!.file);
      index.close();
      const run = await runHraAsync(['quotes', 'check', '--warc', file, '--record', recordId, '--quote', QUOTE]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, `${expected}\n`, path);
    }
  });

  it('--since leaves out what was checked before it', async () => {
    const run = await replay(original, ['--verify', '--since', '2026-11-21']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '0 verdicts checked, 0 match, 0 differ\n');
  });

  describe('bad input: one hra: line naming the file and record, exit 1, nothing appended', () => {
    const recordOf = (path: string) => String(quoteLines.find((row) => row.url === urlOf(path))!.warcRecordId);
    const cases: ReadonlyArray<[string, (where: { corpus: string; archive: string }) => void, (where: { archive: string }) => RegExp]> = [
      ['an archive without its index', (where) => rmSync(join(where.archive, 'index.sqlite')),
        (where) => new RegExp(`^hra: --archive ${where.archive.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/index\\.sqlite: no archive index`)],
      ['a record missing from the index', (where) => {
        const index = openArchiveIndex(where.archive);
        index.database.prepare('DELETE FROM records WHERE record_id = ?').run(recordOf('/verbatim'));
        index.close();
      }, () => new RegExp(`^hra: --archive \\S+: record ${recordOf('/verbatim').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not in the archive index$`)],
      ['a truncated WARC file', (where) => {
        const index = openArchiveIndex(where.archive, { readonly: true });
        const row = index.byRecordId(recordOf('/verbatim'))!;
        index.close();
        truncateSync(join(where.archive, row.file), row.offset + Math.floor(row.length / 2));
      }, () => /^hra: --archive \S+: warc\/\S+\.warc\.gz record <urn:uuid:[0-9a-f-]+>: file ends at \d+, before the indexed end \d+$/],
      ['a missing WARC file', (where) => {
        const index = openArchiveIndex(where.archive, { readonly: true });
        const row = index.byRecordId(recordOf('/verbatim'))!;
        index.close();
        rmSync(join(where.archive, row.file));
      }, () => /^hra: --archive \S+: warc\/\S+\.warc\.gz record <urn:uuid:[0-9a-f-]+>: file is missing$/],
    ];
    for (const [name, damage, message] of cases) {
      it(name, async () => {
        const where = copyOfRun(`bad-${name.replace(/\W+/g, '-')}`, original);
        damage(where);
        const before = readFileSync(join(where.corpus, 'evidence/quote-checks.ndjson'), 'utf8');
        for (const mode of [['--verify'], []]) {
          const run = await replay(where, mode);
          assert.match(failureLine(run), message(where));
          assert.equal(run.stdout, '');
        }
        assert.equal(readFileSync(join(where.corpus, 'evidence/quote-checks.ndjson'), 'utf8'), before);
      });
    }
  });
});
