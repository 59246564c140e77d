/** verifyArchivedEvidence: every record the evidence names is in the archive and hashes right; each one wrong is named. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { openArchiveIndex } from '../../../build/archive/archive-index.ts';
import { openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { pruneArchive } from '../../../build/archive/prune-archive.ts';
import { verifyArchivedEvidence } from '../../../build/archive/verify-archived-evidence.ts';
import { appendUnarchivedLine, archiveRun } from '../../support/evidence-archive-fixture.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-verify-archive-');
let made = 0;
const WEEK1 = new Date('2026-11-02T06:00:00.000Z');
const WEEK2 = new Date('2026-11-09T06:00:00.000Z');

/** Two weekly runs: `same` unchanged (a revisit in week 2), `moving` changed; quote checks on `same`. */
async function twoWeeks() {
  const dir = join(work, `case-${++made}`);
  const archive = join(dir, 'archive');
  const corpus = join(dir, 'corpus');
  const pages = (week: number) => [
    { url: 'http://same.test/program', body: '<html><p>Grants up to $5,000.</p></html>', quote: true },
    { url: 'http://moving.test/program', body: `<html><p>Week ${week} figures</p></html>`, hops: 1 },
  ];
  const week1 = await archiveRun(archive, corpus, WEEK1, pages(1), 4001);
  const week2 = await archiveRun(archive, corpus, WEEK2, pages(2), 4002);
  appendUnarchivedLine(corpus, 'http://old.test/gone', '2026-01-01');
  return { archive, corpus, week1, week2 };
}

function rowOf(archive: string, recordId: string) {
  const index = openArchiveIndex(archive, { readonly: true });
  try {
    const row = index.byRecordId(recordId);
    assert.ok(row, recordId);
    return row;
  } finally {
    index.close();
  }
}

describe('verifyArchivedEvidence', () => {
  it('passes on a fresh archive, counting lines without a record as not archived', async () => {
    const { archive, corpus, week2 } = await twoWeeks();
    assert.equal(week2[0]!.responseType, 'revisit', 'the unchanged page is a revisit in week 2');
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.deepEqual(report.problems, []);
    assert.equal(report.lines, 7);
    assert.equal(report.archived, 6);
    assert.equal(report.notArchived, 1);
    assert.equal(report.records, 4, 'a quote check and its link attempt name one record');
    assert.equal(report.payloadsHashed, 3, 'the revisit\'s payload is its response\'s, hashed once');
    assert.equal(report.recordsRead, 4, 'three responses and the revisit\'s own member');
    assert.equal(report.replacedAndPruned, 0);
  });

  it('names the record whose payload was edited (re-compressed, index adjusted: only the digest can tell)', async () => {
    const { archive, corpus, week1 } = await twoWeeks();
    const row = rowOf(archive, week1[1]!.responseRecordId);
    const path = join(archive, row.file);
    const bytes = readFileSync(path);
    const member = gunzipSync(bytes.subarray(row.offset, row.offset + row.length));
    const edited = gzipSync(Buffer.from(member.toString('latin1').replace('Week 1 figures', 'Week 9 figures'), 'latin1'));
    writeFileSync(path, Buffer.concat([bytes.subarray(0, row.offset), edited, bytes.subarray(row.offset + row.length)]));
    const index = openArchiveIndex(archive);
    index.database.prepare('UPDATE records SET offset = offset + ? WHERE file = ? AND offset > ?').run(edited.length - row.length, row.file, row.offset);
    index.database.prepare('UPDATE records SET length = ? WHERE record_id = ?').run(edited.length, row.recordId);
    index.close();
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.equal(report.problems.length, 1, report.problems.join('\n'));
    assert.match(report.problems[0]!, new RegExp(`${row.file} record ${escape(row.recordId)}: payload sha256 [0-9a-f]{64} does not match its digest ${row.payloadSha256}`));
  });

  it('names the record whose bytes were flipped, and the response a revisit repeats when that one is damaged', async () => {
    const { archive, corpus, week1 } = await twoWeeks();
    const row = rowOf(archive, week1[0]!.responseRecordId);
    const path = join(archive, row.file);
    const bytes = readFileSync(path);
    bytes[row.offset + Math.floor(row.length / 2)]! ^= 0xff;
    writeFileSync(path, bytes);
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    // Week 2's revisit rests on this response too: still one line, since the response is read once.
    assert.equal(report.problems.length, 1, report.problems.join('\n'));
    assert.ok(report.problems[0]!.includes(`${row.file} record ${row.recordId}`), report.problems[0]);
  });

  it('names the records of a deleted file, and a record the index does not hold', async () => {
    const { archive, corpus, week2 } = await twoWeeks();
    const moving = rowOf(archive, week2[1]!.responseRecordId);
    rmSync(join(archive, moving.file));
    appendFileSync(join(corpus, 'evidence/link-checks.ndjson'), `${JSON.stringify({
      url: 'http://never.test/', checkedAt: '2026-11-10', outcome: 'live', httpStatus: 200, pageClass: 'program',
      warcRecordId: '<urn:uuid:00000000-0000-4000-8000-000000000000>', payloadSha256: 'c'.repeat(64),
    })}\n`);
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    const revisit = rowOf(archive, week2[0]!.responseRecordId);
    assert.equal(revisit.file, moving.file, 'week 2\'s revisit was in the deleted file too');
    assert.equal(report.problems.length, 3, report.problems.join('\n'));
    assert.equal(report.problems[0], `record <urn:uuid:00000000-0000-4000-8000-000000000000>: not in the archive (no index row), named by ${join(corpus, 'evidence/link-checks.ndjson')}:6`);
    assert.deepEqual(report.problems.slice(1).sort(), [`${moving.file} record ${moving.recordId}: file is missing`, `${revisit.file} record ${revisit.recordId}: file is missing`].sort());
  });

  it('names a line whose payload digest is not its record\'s', async () => {
    const { archive, corpus, week1 } = await twoWeeks();
    const file = join(corpus, 'evidence/quote-checks.ndjson');
    writeFileSync(file, readFileSync(file, 'utf8').replace(week1[0]!.payloadSha256, 'd'.repeat(64)));
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.equal(report.problems.length, 1, report.problems.join('\n'));
    assert.match(report.problems[0]!, /the evidence binds 2 different payload digests to it, named by .*link-checks\.ndjson:1 and 1 more line$/);
  });
});

/** Sets one column of one index row, as a tamperer with only the index would. */
function setRow(archive: string, recordId: string, column: string, value: unknown): void {
  const index = openArchiveIndex(archive);
  try {
    index.database.prepare(`UPDATE records SET ${column} = ? WHERE record_id = ?`).run(value, recordId);
  } finally {
    index.close();
  }
}

/** Rewrites the evidence lines of `file` through `edit`. */
function editLines(corpus: string, file: string, edit: (row: Record<string, unknown>) => void): void {
  const path = join(corpus, file);
  const rows = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const row of rows) edit(row);
  writeFileSync(path, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
}

describe('verifyArchivedEvidence on an archive as untrusted input', () => {
  it('names an index row whose target URI disagrees with its record (the index is only a locator)', async () => {
    const { archive, corpus, week2 } = await twoWeeks();
    const row = rowOf(archive, week2[1]!.responseRecordId);
    setRow(archive, row.recordId, 'target_uri', 'http://same.test/program');
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.ok(report.problems.includes(`${row.file} record ${row.recordId}: indexed as of http://same.test/program, written as of http://moving.test/program`), report.problems.join('\n'));
  });

  it('names a quote line, and a link line, that name another URL\'s record (no archive byte changed)', async () => {
    const { archive, corpus, week1 } = await twoWeeks();
    const other = week1[1]!;
    const rebind = (row: Record<string, unknown>) => {
      if (row.url === 'http://same.test/program' && row.checkedAt === '2026-11-02') Object.assign(row, { warcRecordId: other.responseRecordId, payloadSha256: other.payloadSha256 });
    };
    editLines(corpus, 'evidence/quote-checks.ndjson', rebind);
    let report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    const file = rowOf(archive, other.responseRecordId).file;
    assert.deepEqual(report.problems, [`${file} record ${other.responseRecordId}: the record is of http://moving.test/program, not of the line's finalUrl http://same.test/program, named by ${join(corpus, 'evidence/quote-checks.ndjson')}:1`]);
    editLines(corpus, 'evidence/link-checks.ndjson', rebind);
    report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.ok(report.problems.includes(`${file} record ${other.responseRecordId}: the record is of http://moving.test/program, not of the line's url http://same.test/program nor of a redirect from it in the archive, named by ${join(corpus, 'evidence/link-checks.ndjson')}:1`), report.problems.join('\n'));
  });

  it('passes a link line whose record its redirect in the archive leads to; after a prune too, which keeps the hop', async () => {
    const dir = join(work, `case-${++made}`);
    const archive = join(dir, 'archive');
    const corpus = join(dir, 'corpus');
    const date = new Date('2026-10-05T06:00:00.000Z');
    const writer = await openArchiveWriter({ archiveDir: archive, now: () => date, pid: 4100, isProcessAlive: () => false });
    const exchange = (url: string, status: number, headers: Array<[string, string]>, body: string) => ({
      targetUri: url, date, request: { method: 'GET', headers: [] as Array<[string, string]> }, response: { status, headers, payload: Buffer.from(body) },
    });
    const hop = await writer.writeExchange(exchange('http://old.test/grant', 301, [['Location', '/new/grant']], ''));
    const final = await writer.writeExchange(exchange('http://old.test/new/grant', 200, [['Content-Type', 'text/html']], '<p>Grants</p>'));
    await writer.close();
    mkdirSync(join(corpus, 'evidence'), { recursive: true });
    writeFileSync(join(corpus, 'evidence/link-checks.ndjson'), `${JSON.stringify({ url: 'http://old.test/grant', checkedAt: '2026-10-05', outcome: 'live', httpStatus: 200, pageClass: 'program', warcRecordId: final.responseRecordId, payloadSha256: final.payloadSha256 })}\n`);
    assert.deepEqual((await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus })).problems, []);
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 0, now: new Date('2026-12-01T00:00:00Z'), dryRun: false });
    assert.equal(summary.plan.kept.redirect, 1, 'the hop is kept');
    assert.deepEqual((await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus })).problems, []);
    // Without the hop's redirect (its row now says another URL), the line's record is another URL's.
    setRow(archive, hop.responseRecordId, 'target_uri', 'http://old.test/elsewhere');
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.ok(report.problems.some((problem) => problem.includes('the record is of http://old.test/new/grant, not of the line\'s url http://old.test/grant nor of a redirect from it')), report.problems.join('\n'));
  });

  it('never reads outside the archive: a .. path, a symlinked file, a FIFO, a directory are each named', async () => {
    const { archive, corpus, week1 } = await twoWeeks();
    const row = rowOf(archive, week1[1]!.responseRecordId);
    const outside = join(archive, '..', 'outside');
    mkdirSync(outside);
    renameSync(join(archive, row.file), join(outside, 'moved.warc.gz'));
    const cases: Array<[string, () => void, RegExp]> = [
      // The path the old reader followed out of the archive: both checks passed on the moved file.
      ['..', () => setRow(archive, row.recordId, 'file', '../outside/moved.warc.gz'), /: the index names "\.\.\/outside\/moved\.warc\.gz" is not inside warc\/$/],
      ['symlink', () => { setRow(archive, row.recordId, 'file', row.file); symlinkSync(join(outside, 'moved.warc.gz'), join(archive, row.file)); }, /: is a symbolic link, not a regular file$/],
      ['fifo', () => { rmSync(join(archive, row.file)); execFileSync('mkfifo', [join(archive, row.file)]); }, /: is a FIFO, not a regular file$/],
      ['directory', () => { rmSync(join(archive, row.file)); mkdirSync(join(archive, row.file)); }, /: is a directory, not a regular file$/],
    ];
    for (const [name, damage, problem] of cases) {
      damage();
      const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
      assert.ok(report.problems.some((line) => line.startsWith(`${name === '..' ? '../outside/moved.warc.gz' : row.file} record ${row.recordId}`) && problem.test(line)), `${name}: ${report.problems.join('\n')}`);
    }
  });

  it('names an index length of 3·10^9 (which aborted node) and a text one', async () => {
    const { archive, corpus, week1 } = await twoWeeks();
    const row = rowOf(archive, week1[1]!.responseRecordId);
    for (const [length, problem] of [[3e9, /length 3000000000 is past the \d+ bytes a record's member may take$/], ['big', /length "big" is not a byte count$/]] as const) {
      setRow(archive, row.recordId, 'length', length);
      const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
      assert.ok(report.problems.some((line) => line.startsWith(`${row.file} record ${row.recordId}: `) && problem.test(line)), report.problems.join('\n'));
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
