/**
 * `hra verify --archive` checks what review lines and audit rows name (issue 38 item 5): a run of the model
 * reviewer against the loopback model makes real lines and a real archive; each edit of a line (an id, a
 * digest, a record of another URL, a swapped exchange) or of an audit row is named by file, line or row,
 * and record id.
 */
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyArchivedEvidence } from '../../../build/archive/verify-archived-evidence.ts';
import { startModelServer, type ModelServer } from '../../../scripts/loopback/model-server.ts';
import { AMOUNT_AND_IDENT_RECORDS, answerBothRecords, readReviewLines, writeReviewTestCorpus } from '../../support/review-test-corpus.ts';
import { spawnHra } from '../../support/run-hra.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const RECORDS = AMOUNT_AND_IDENT_RECORDS;
const REVIEWS = 'evidence/source-reviews.ndjson';
const AUDIT = 'reports/fact-audit-latest.json';

describe('verifyArchivedEvidence on review lines and audit rows', () => {
  let dir: string;
  let server: ModelServer;
  let lines: Array<Record<string, unknown>>;

  before(async () => {
    dir = makeTempDir('hra-verify-reviews-');
    const { corpus, archive } = await writeReviewTestCorpus(dir, RECORDS);
    server = await startModelServer({ reply: answerBothRecords });
    const child = spawnHra(['reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', 'loopback-1', '--at', '2026-11-12T08:00:00Z']);
    child.stdout!.resume();
    child.stderr!.resume();
    assert.equal(await new Promise((resolve) => child.on('close', resolve)), 0);
    lines = readReviewLines(corpus);
    assert.equal(lines.length, 2);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the run's corpus whose review lines (and audit report) are edited; the archive is shared, never written. */
  const verifyWith = async (edit: (line: Record<string, unknown>) => Record<string, unknown>, audit?: (report: Record<string, unknown>) => Record<string, unknown>) => {
    const corpus = join(dir, `copy-${Math.random().toString(36).slice(2)}`);
    cpSync(join(dir, 'corpus'), corpus, { recursive: true });
    writeFileSync(join(corpus, REVIEWS), lines.map((line) => `${JSON.stringify(line.programId === 'amount' ? edit(line) : line)}\n`).join(''));
    if (audit !== undefined) writeFileSync(join(corpus, AUDIT), JSON.stringify(audit(JSON.parse(readFileSync(join(corpus, AUDIT), 'utf8')) as Record<string, unknown>)));
    const report = await verifyArchivedEvidence({ archiveDir: join(dir, 'archive'), corpusDir: corpus });
    return { report, file: join(corpus, REVIEWS), auditFile: join(corpus, AUDIT) };
  };
  const amount = () => lines.find((line) => line.programId === 'amount')!;
  // The run appends in completion order: the amount review's line number is where it landed.
  const at = () => lines.indexOf(amount()) + 1;
  const ident = () => lines.find((line) => line.programId === 'ident')!;
  const exchangeOf = (line: Record<string, unknown>) => line.exchange as { requestRecordId: string; responseRecordId: string };

  it('finds nothing wrong in the lines a run wrote, and counts them', async () => {
    const { report } = await verifyWith((line) => line);
    assert.deepEqual(report.problems, []);
    assert.deepEqual([report.reviewLines, report.reviewExchanges], [2, 2]);
  });

  it('names an edited page id by file, line and id', async () => {
    const edited = String(amount().warcRecordId).replace(/[0-9a-f]>$/, (c) => (c === '0>' ? '1>' : '0>'));
    const { report, file } = await verifyWith((line) => ({ ...line, warcRecordId: edited }));
    assert.deepEqual(report.problems, [`${file}:${at()} warcRecordId ${edited}: not in the archive (no index row)`]);
  });

  it('names a digest the record does not have', async () => {
    const { report, file } = await verifyWith((line) => ({ ...line, payloadSha256: '0'.repeat(64) }));
    assert.equal(report.problems.length, 1);
    assert.ok(report.problems[0]!.startsWith(`${file}:${at()} warcRecordId ${String(amount().warcRecordId)}: the line binds payload sha256 ${'0'.repeat(64)}, the archive indexes `), report.problems[0]);
  });

  it('names a page of another URL, with its digest', async () => {
    const other = ident();
    const { report, file } = await verifyWith((line) => ({ ...line, warcRecordId: other.warcRecordId, payloadSha256: other.payloadSha256 }));
    assert.deepEqual(report.problems, [
      `${file}:${at()} warcRecordId ${String(other.warcRecordId)}: the record is of https://reviews.example.test/ident, not of alpha/amount's cited URL https://reviews.example.test/amount nor of a redirect from it in the archive`,
    ]);
  });

  it('names an exchange whose records are swapped, or of another review', async () => {
    const { requestRecordId, responseRecordId } = exchangeOf(amount());
    const swapped = await verifyWith((line) => ({ ...line, exchange: { requestRecordId: responseRecordId, responseRecordId: requestRecordId } }));
    assert.deepEqual(swapped.report.problems, [
      `${swapped.file}:${at()} exchange: requestRecordId ${responseRecordId}: is a response record, not a request`,
      `${swapped.file}:${at()} exchange: responseRecordId ${requestRecordId}: is a request record, not a response`,
    ]);
    const theirs = exchangeOf(ident());
    const mixed = await verifyWith((line) => ({ ...line, exchange: { requestRecordId, responseRecordId: theirs.responseRecordId } }));
    assert.deepEqual(mixed.report.problems, [`${mixed.file}:${at()} exchange: requestRecordId ${requestRecordId}: its response is ${responseRecordId}, not ${theirs.responseRecordId}`]);
    const page = await verifyWith((line) => ({ ...line, exchange: { requestRecordId, responseRecordId: String(line.warcRecordId) } }));
    assert.ok(page.report.problems.some((problem) => problem.startsWith(`${page.file}:${at()} exchange: requestRecordId ${requestRecordId}: its response is`)), page.report.problems.join('\n'));
    assert.ok(page.report.problems.some((problem) => problem.includes(`responseRecordId ${String(amount().warcRecordId)}: a response of https://reviews.example.test/amount, not of the request's`)), page.report.problems.join('\n'));
  });

  it('checks an audit row\'s record: in the archive, and of its record\'s URL', async () => {
    const row = (over: Record<string, unknown>) => (report: Record<string, unknown>) => ({ ...report, records: (report.records as Array<Record<string, unknown>>).map((r) => ({ ...r, ...over })) });
    const good = await verifyWith((line) => line, row({ programId: 'amount', warcRecordId: amount().warcRecordId, payloadSha256: amount().payloadSha256 }));
    assert.deepEqual(good.report.problems, []);
    assert.equal(good.report.auditRows, 1);
    const other = await verifyWith((line) => line, row({ programId: 'amount', warcRecordId: ident().warcRecordId }));
    assert.deepEqual(other.report.problems, [
      `${other.auditFile} records[0] (alpha/amount maxAmount) warcRecordId ${String(ident().warcRecordId)}: the record is of https://reviews.example.test/ident, not of alpha/amount's cited URL https://reviews.example.test/amount nor of a redirect from it in the archive`,
    ]);
    const missing = '<urn:uuid:00000000-0000-4000-8000-000000000000>';
    const absent = await verifyWith((line) => line, row({ programId: 'amount', warcRecordId: missing }));
    assert.deepEqual(absent.report.problems, [`${absent.auditFile} records[0] (alpha/amount maxAmount) warcRecordId ${missing}: not in the archive (no index row)`]);
  });
});
