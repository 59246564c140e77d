/**
 * `hra audit sample` and `hra audit publish` end to end on a copy of the mini corpus: the real CLI draws
 * and publishes, the real build serves the report, and readiness compares its bound with the threshold.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { AUDIT_COLUMNS, type AuditRow } from '../../build/audit/audit-worksheet.ts';
import { readWorksheet } from '../../build/worksheets/read-worksheet.ts';
import { writeWorksheet } from '../../build/worksheets/write-worksheet.ts';
import { evaluateReadiness } from '../../gateway/readiness/evaluate-readiness.ts';
import { openSnapshot } from '../../gateway/snapshot/open-snapshot.ts';
import { runAuditPublish } from '../../scripts/commands/audit-publish-action.ts';
import { runAuditSample } from '../../scripts/commands/audit-sample-action.ts';
import { copyCorpusWith } from '../support/copy-corpus-with.ts';
import { archiveRun } from '../support/evidence-archive-fixture.ts';
import { lastJsonLine, runHra, stderrLines } from '../support/run-hra.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../support/start-test-gateway.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const manifest = JSON.parse(readFileSync(join(MINI_CORPUS, 'manifest.json'), 'utf8')) as { readiness: { thresholds: Record<string, number> } };
const AT = '2026-11-18T10:00:00Z';

const rowsOf = (file: string): AuditRow[] => readWorksheet(file, file, AUDIT_COLUMNS).map((row) => row.cells);
/** Saves rows as a spreadsheet would: a byte order mark, CRLF line ends, quoted cells. */
const save = (file: string, rows: readonly AuditRow[], columns: readonly string[] = AUDIT_COLUMNS) =>
  writeFileSync(file, `\uFEFF${writeWorksheet(columns as typeof AUDIT_COLUMNS, rows)}`);
const fillAll = (rows: readonly AuditRow[]): AuditRow[] => rows.map((row, index) => ({
  ...row, verdict: 'match', observedValue: row.storedValue, note: index === 0 ? 'checked on the archived page, "heading", line 2\nand the footer' : '',
}));

describe('hra audit sample and hra audit publish', () => {
  let corpus = '';
  let dir = '';
  let worksheet = '';
  before(() => {
    // A 5% threshold: 0 errors in 5 records (upper bound 0.521824) cannot turn the gate green.
    corpus = copyCorpusWith({ readiness: { ...manifest.readiness, thresholds: { ...manifest.readiness.thresholds, maxFactErrorRate: 0.05 } } });
    dir = makeTempDir('hra-audit-');
    worksheet = join(dir, 'audit.csv');
  });

  it('draws a sample of 5 records into a worksheet of 25 rows and its draw file', () => {
    const run = runHra(['audit', 'sample', '--corpus', corpus, '--size', '5', '--seed', 'audit-2026-11', '--out', worksheet, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const summary = lastJsonLine(run);
    assert.equal(summary.ok, true);
    assert.equal(summary.frameSize, 8);
    assert.equal((summary.records as unknown[]).length, 5);
    assert.equal(readFileSync(worksheet, 'utf8').split('\r\n')[0], AUDIT_COLUMNS.join(','));
    const rows = rowsOf(worksheet);
    assert.equal(rows.length, 25);
    assert.deepEqual([...new Set(rows.map((row) => row.field))], ['maxAmount', 'fundingStatus', 'phone', 'url', 'deadline']);
    assert.ok(rows.every((row) => row.verdict === '' && row.observedValue === '' && row.note === ''));
    const draw = JSON.parse(readFileSync(`${worksheet}.draw.json`, 'utf8')) as Record<string, unknown>;
    assert.deepEqual([draw.algorithm, draw.seed, draw.size, draw.strata, draw.frameDigest], ['hra-audit-sample-1', 'audit-2026-11', 5, 'city', summary.frameDigest]);
  });

  it('draws the same worksheet again from the same seed, another from another seed, and never overwrites one', async () => {
    const again = join(dir, 'again.csv');
    await runAuditSample({ corpus, size: '5', seed: 'audit-2026-11', out: again });
    assert.equal(readFileSync(again, 'utf8'), readFileSync(worksheet, 'utf8'));
    const other = join(dir, 'other.csv');
    await runAuditSample({ corpus, size: '5', seed: 'audit-2026-12', out: other });
    const records = (file: string) => [...new Set(rowsOf(file).map((row) => `${row.city}/${row.programId}`))].join(' ');
    assert.notEqual(records(other), records(worksheet));
    await assert.rejects(runAuditSample({ corpus, size: '5', seed: 'x', out: worksheet }), /--out .*audit\.csv: already exists \(a filled worksheet is never overwritten/);
  });

  it('with --archive, fills each record\'s passages from the archived page its rows name, hidden text left out', async () => {
    const pages = copyCorpusWith({});
    const archive = join(dir, 'archive');
    await archiveRun(archive, pages, new Date('2026-11-10T08:00:00Z'), [{ url: 'https://alpha.example.org/roof', body: '<h1>Alpha Roof Repair Grant</h1><p>Grants of up to $15,000.</p><p style="display:none">Up to $90,000.</p>' }]);
    const file = join(dir, 'with-passages.csv');
    await runAuditSample({ corpus: pages, size: '8', seed: 's', out: file, archive });
    const rows = rowsOf(file);
    const roof = rows.filter((row) => row.programId === 'a-roof');
    assert.equal(roof.length, 5);
    assert.ok(roof.every((row) => /^<urn:uuid:/.test(row.warcRecordId) && /Grants of up to \$15,000\./.test(row.passages) && !row.passages.includes('90,000')), JSON.stringify(roof[0]));
    assert.ok(rows.filter((row) => row.programId !== 'a-roof').every((row) => row.passages === ''), 'no archived page, no passages');
  });

  const report = () => readFileSync(join(corpus, 'reports/fact-audit-latest.json'), 'utf8');
  const refusals: [what: string, edit: (rows: AuditRow[]) => { rows: AuditRow[]; columns?: string[] }, message: RegExp][] = [
    ['moved columns', (rows) => ({ rows, columns: ['programId', 'city', ...AUDIT_COLUMNS.slice(2)] }), /row 1: column 1 must be "city", found "programId"/],
    ['a missing row', (rows) => ({ rows: rows.slice(1) }), /: the row of \S+ maxAmount is missing \(the sample has 25 rows\)/],
    ['an added row', (rows) => ({ rows: [...rows, { ...rows[0]!, programId: 'a-extra' }] }), /row 27 column programId: alpha\/a-extra maxAmount is not a row of the sample/],
    ['an edited record id', (rows) => ({ rows: rows.map((row, i) => (i === 6 ? { ...row, programId: `${row.programId}x` } : row)) }), /row 8 column programId: \S+x fundingStatus is not a row of the sample/],
    ['an edited stored value', (rows) => ({ rows: rows.map((row, i) => (i === 3 ? { ...row, storedValue: 'edited' } : row)) }), /row 5 column storedValue: edited: the sample wrote/],
    ['a bad verdict', (rows) => ({ rows: rows.map((row, i) => (i === 2 ? { ...row, verdict: 'ok' } : row)) }), /row 4 column verdict: must be one of match, mismatch, unverifiable, found "ok"/],
    ['a mismatch without what the page states', (rows) => ({ rows: rows.map((row, i) => (i === 1 ? { ...row, verdict: 'mismatch', observedValue: '' } : row)) }), /row 3 column observedValue: a mismatch must say what the archived page states/],
  ];
  for (const [what, edit, message] of refusals) {
    it(`refuses ${what} by name and publishes nothing`, () => {
      const before = report();
      const file = join(dir, `refused-${what.replaceAll(' ', '-')}.csv`);
      const { rows, columns } = edit(fillAll(rowsOf(worksheet)));
      save(file, rows, columns);
      assert.throws(() => runAuditPublish({ corpus, worksheet: file, draw: `${worksheet}.draw.json`, reviewer: 'A. Person', at: AT }), message);
      assert.equal(report(), before);
    });
  }

  it('refuses on one hra: line through the real CLI, with every problem in --json', () => {
    const file = join(dir, 'unfilled.csv');
    save(file, rowsOf(worksheet).map((row, i) => (i < 2 ? { ...row, verdict: 'match' } : row)));
    const run = runHra(['audit', 'publish', '--corpus', corpus, '--worksheet', file, '--draw', `${worksheet}.draw.json`, '--reviewer', 'A. Person', '--json']);
    assert.equal(run.status, 1);
    assert.match(stderrLines(run).at(-1) ?? '', /^hra: worksheet refused, nothing published: .*unfilled\.csv row 4 column verdict: must be one of match, mismatch, unverifiable, found ""$/);
    assert.equal((lastJsonLine(run).problems as unknown[]).length, 23);
  });

  it('publishes a filled worksheet saved by a spreadsheet, and 0 errors in 5 records leaves the gate red under 5%', () => {
    const filled = fillAll(rowsOf(worksheet));
    save(worksheet, filled);
    const run = runHra(['audit', 'publish', '--corpus', corpus, '--worksheet', worksheet, '--reviewer', 'A. Person', '--at', AT, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const published = JSON.parse(report()) as { version: number; completedAt: string; manifest: Record<string, any>; summary: Record<string, unknown>; records: Record<string, string>[] };
    assert.equal(published.version, 3);
    assert.equal(published.completedAt, AT);
    assert.deepEqual(published.manifest.sampling.seed, 'audit-2026-11');
    assert.deepEqual(published.manifest.errorBound, { method: 'clopper-pearson', confidence: 0.95, sides: 'two-sided' });
    assert.deepEqual(published.manifest.reviewer, { kind: 'person', name: 'A. Person' });
    assert.deepEqual([published.summary.recordsAudited, published.summary.factErrors, published.summary.errorRate, published.summary.errorRateUpperBound], [5, 0, 0, 0.521824]);
    assert.equal(published.records.length, 25);
    assert.equal(published.records.find((record) => record.note !== undefined)?.note, filled[0]?.note, 'a quoted note with commas and a line break reads as written');

    const snapshot = openSnapshot(buildTestSnapshot(corpus));
    try {
      const readiness = JSON.parse(evaluateReadiness(snapshot.readinessInputs, { sharedRateLimitStorage: true, rateLimitStorageScheme: 'redis', trustedOriginProxyConfigured: true }, snapshot.revision, new Date('2026-11-20T00:00:00Z'))) as { strictAudit: Record<string, unknown>; reasons: { code: string }[] };
      assert.deepEqual([readiness.strictAudit.green, readiness.strictAudit.errorRate, readiness.strictAudit.errorRateUpperBound], [false, 0, 0.521824]);
      assert.ok(readiness.reasons.some((reason) => reason.code === 'STRICT_AUDIT_ERROR_RATE'));
    } finally {
      snapshot.close();
    }
  });
});
