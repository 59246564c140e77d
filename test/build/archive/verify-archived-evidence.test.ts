/** verifyArchivedEvidence: every record the evidence names is in the archive and hashes right; each one wrong is named. */
import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { openArchiveIndex } from '../../../build/archive/archive-index.ts';
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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
