/**
 * pruneArchive: records past the window go, except those the evidence rests on (and the responses their
 * revisits repeat, and their requests); mixed files are rewritten by byte copy; a killed prune loses nothing.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openArchiveIndex, type ArchiveIndexRow } from '../../../build/archive/archive-index.ts';
import { applyFilePrune, PRUNE_JOURNAL, recoverInterruptedPrune } from '../../../build/archive/apply-archive-prune.ts';
import { planArchivePrune } from '../../../build/archive/plan-archive-prune.ts';
import { ArchiveLockedError } from '../../../build/archive/archive-lock.ts';
import { openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { pruneArchive } from '../../../build/archive/prune-archive.ts';
import { verifyArchivedEvidence } from '../../../build/archive/verify-archived-evidence.ts';
import { archiveRun } from '../../support/evidence-archive-fixture.ts';
import { readArchivedExchanges } from '../../support/read-with-node-warc.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-prune-archive-');
let made = 0;
const week = (n: number) => new Date(Date.UTC(2026, 9, 5 + 7 * n, 6));
const NOW = new Date(week(3).getTime() + 24 * 3600 * 1000);

/**
 * Four weekly runs (weeks 0-3): `same` never changes (a response in week 0, revisits after); `moving` changes
 * every week, after a redirect hop; `quoted` has a quote check each week. Week 3's lines are the latest.
 */
async function fourWeeks() {
  const dir = join(work, `case-${++made}`);
  const archive = join(dir, 'archive');
  const corpus = join(dir, 'corpus');
  const runs = [];
  for (let n = 0; n < 4; n++) {
    runs.push(await archiveRun(archive, corpus, week(n), [
      { url: 'http://same.test/program', body: '<p>Grants up to $5,000.</p>' },
      { url: 'http://moving.test/program', body: `<p>Week ${n}</p>`, hops: 1 },
      { url: 'http://quoted.test/program', body: `<p>Up to $${1000 + n}</p>`, quote: true },
    ], 5000 + n));
  }
  return { archive, corpus, runs };
}

function allRows(archive: string): ArchiveIndexRow[] {
  const index = openArchiveIndex(archive, { readonly: true });
  try {
    return index.listFiles().flatMap((file) => index.rowsOfFile(file));
  } finally {
    index.close();
  }
}

function warcFiles(archive: string): string[] {
  return (readdirSync(join(archive, 'warc'), { recursive: true }) as string[]).filter((name) => /\.warc\.gz/.test(name)).sort();
}

describe('pruneArchive', () => {
  it('keeps the window, the records the latest lines name, the responses their revisits repeat and their requests; verify still passes', async () => {
    const { archive, corpus, runs } = await fourWeeks();
    const before = allRows(archive);
    assert.equal(before.length, 4 * 8);
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: false });
    const after = allRows(archive);
    const ids = new Set(after.map((row) => row.recordId));
    const week3 = before.filter((row) => row.warcDate === week(3).toISOString());
    for (const row of week3) assert.ok(ids.has(row.recordId), `week 3 (within the window): ${row.type} ${row.targetUri}`);
    const same0 = runs[0]![0]!;
    assert.equal(runs[3]![0]!.responseType, 'revisit');
    assert.ok(ids.has(same0.responseRecordId), 'the response week 3\'s revisit repeats');
    assert.ok(ids.has(same0.requestRecordId), 'its request');
    // Week 3's redirect hop is a revisit too (the same 302 body): week 0's hop response stays, with its request.
    const hop0 = before.filter((row) => row.warcDate === week(0).toISOString() && row.targetUri.endsWith('?hop=0'));
    for (const row of hop0) assert.ok(ids.has(row.recordId), `week 0's hop: ${row.type}`);
    // Everything else of weeks 0-2 is gone: replaced by week 3's lines, or named by none (the hops' revisits).
    assert.equal(after.length, week3.length + 4, after.map((row) => `${row.warcDate} ${row.type} ${row.targetUri}`).join('\n'));
    assert.deepEqual(summary.plan.kept, { window: 8, bound: 0, redirect: 0, repeated: 2, request: 2 });
    assert.equal(summary.plan.expiredRecords, 32 - 12);
    assert.deepEqual(summary.files.map((file) => 'action' in file ? file.action : 'planned'), ['rewritten', 'removed', 'removed']);
    // The rewritten week 0 file holds exactly the kept members, read by another parser, and every row points into it.
    const rewritten = summary.files[0] as { replacement: string };
    const records = await readArchivedExchanges(join(archive, rewritten.replacement));
    const hopIds = (type: string) => hop0.find((row) => row.type === type)!.recordId;
    assert.deepEqual(records.map((record) => record.warcHeader['WARC-Record-ID']), [same0.responseRecordId, same0.requestRecordId, hopIds('response'), hopIds('request')]);
    assert.equal(warcFiles(archive).length, 2, warcFiles(archive).join(', '));
    assert.ok(!existsSync(join(archive, PRUNE_JOURNAL)));
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.deepEqual(report.problems, []);
    assert.ok(report.replacedAndPruned > 0, 'lines whose records were pruned as replaced');
    // A second prune finds nothing more to do.
    const again = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: false });
    assert.equal(again.plan.expiredRecords, 0);
  });

  it('keeps a record whose line no later archived line replaces, however old', async () => {
    const { archive, corpus, runs } = await fourWeeks();
    // Week 3's line of `moving` names a record the archive does not hold: week 2's line still rests on its bytes.
    const index = openArchiveIndex(archive);
    index.database.prepare('DELETE FROM records WHERE record_id = ?').run(runs[3]![1]!.responseRecordId);
    index.close();
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 0, now: NOW, dryRun: false });
    assert.equal(summary.plan.kept.bound, 3, 'week 3\'s same and quoted, week 2\'s moving: all past a window of 0 weeks');
    const ids = new Set(allRows(archive).map((row) => row.recordId));
    assert.ok(ids.has(runs[2]![1]!.responseRecordId), 'week 2\'s moving page stays');
    assert.ok(!ids.has(runs[1]![1]!.responseRecordId), 'week 1\'s does not: week 2\'s replaces it');
    assert.ok(ids.has(runs[3]![2]!.responseRecordId), '--keep-weeks 0 still keeps what the latest lines name');
  });

  it('drops the records of a replaced quote: checks of a review since replaced by a newer one, once a check of that one decides', async () => {
    const dir = join(work, `case-${++made}`);
    const archive = join(dir, 'archive');
    const corpus = join(dir, 'corpus');
    const runs = [];
    for (let n = 0; n < 4; n++) {
      // Weeks 0-1 check the review of January; from week 2 the record's review is a newer one, with another quote.
      const quote = n < 2 ? { reviewedAt: '2026-01-05', quoteSha256: 'a'.repeat(64) } : { reviewedAt: '2026-10-15', quoteSha256: 'c'.repeat(64) };
      runs.push(await archiveRun(archive, corpus, week(n), [{ url: 'http://quoted.test/program', body: `<p>Up to $${1000 + n}</p>`, quote }], 6000 + n));
    }
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: false });
    const ids = new Set(allRows(archive).map((row) => row.recordId));
    for (const n of [0, 1, 2]) assert.ok(!ids.has(runs[n]![0]!.responseRecordId), `week ${n}'s page, whose quote check week 3's replaces`);
    assert.ok(ids.has(runs[3]![0]!.responseRecordId));
    assert.equal(summary.plan.kept.bound, 0);
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.deepEqual(report.problems, []);
    assert.equal(report.replacedAndPruned, 3, 'weeks 0-2: each page named by a link line and a quote line, both replaced');
  });

  it('keeps the records of an older review\'s checks while no check of the newer one decides', async () => {
    const dir = join(work, `case-${++made}`);
    const archive = join(dir, 'archive');
    const corpus = join(dir, 'corpus');
    const old = await archiveRun(archive, corpus, week(0), [{ url: 'http://quoted.test/program', body: '<p>Up to $1,000</p>', quote: true }], 7000);
    await archiveRun(archive, corpus, week(3), [{ url: 'http://quoted.test/program', body: '<p>Up to $2,000</p>' }], 7001);
    // The newer review's only check is inconclusive: it decides nothing, so the January check still does.
    writeFileSync(join(corpus, 'evidence/quote-checks.ndjson'), `${readFileSync(join(corpus, 'evidence/quote-checks.ndjson'), 'utf8')}${JSON.stringify({
      city: 'alpha', programId: 'alpha-roof', reviewedAt: '2026-10-15', quoteSha256: 'c'.repeat(64), url: 'http://quoted.test/program', finalUrl: null,
      checkedAt: week(3).toISOString().slice(0, 10), outcome: 'inconclusive', reason: 'timeout', contentType: null,
    })}\n`);
    await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: false });
    assert.ok(new Set(allRows(archive).map((row) => row.recordId)).has(old[0]!.responseRecordId));
  });

  it('--dry-run plans the same and changes nothing', async () => {
    const { archive, corpus } = await fourWeeks();
    const files = warcFiles(archive);
    const rows = allRows(archive);
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: true });
    assert.equal(summary.plan.expiredRecords, 20);
    assert.ok(summary.bytesFreed > 0);
    assert.deepEqual(warcFiles(archive), files);
    assert.deepEqual(allRows(archive), rows);
  });

  it('refuses beside a running writer (it holds the archive\'s lock shared), and seals what a finished one left', async () => {
    const { archive, corpus } = await fourWeeks();
    const writer = await openArchiveWriter({ archiveDir: archive });
    try {
      await assert.rejects(pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: false, lockWaitMs: 50 }), (error: unknown) => {
        assert.ok(error instanceof ArchiveLockedError);
        assert.deepEqual(error.holders, [{ pid: process.pid, purpose: 'links check (archive writer)' }]);
        return true;
      });
    } finally {
      await writer.close();
    }
    assert.equal(allRows(archive).length, 32, 'nothing pruned');
    // The pid of a process that still runs (this one): only the lock, not the pid, says whether its writer does.
    const [first] = warcFiles(archive);
    writeFileSync(join(archive, 'warc', first!.replace(/-\d+-(\d{5})\.warc\.gz$/, `-${process.pid}-$1.warc.gz.open`)), 'torn');
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: NOW, dryRun: false });
    assert.deepEqual(summary.sealed.map((sealed) => sealed.removed), [true], 'nothing of it was indexed');
    assert.ok(!warcFiles(archive).some((name) => name.endsWith('.open')));
  });

  it('leaves a file as it was when a record written since the plan repeats one of its expired records', async () => {
    const { archive, corpus, runs } = await fourWeeks();
    const index = openArchiveIndex(archive);
    const plan = await planArchivePrune(index.database, corpus, new Date(week(3).getTime() - 1).toISOString());
    const week0 = plan.files.find((file) => file.file.includes('-5000-'))!;
    // A links check running beside the prune meets week 0's `moving` page again: its revisit repeats an expired response.
    const late = await archiveRun(archive, join(work, `late-${made}`), week(4), [{ url: 'http://moving.test/program', body: '<p>Week 0</p>' }], 5009);
    assert.equal(late[0]!.responseType, 'revisit');
    const applied = applyFilePrune(week0, { archiveDir: archive, db: index.database, replacementName: (old) => old.replace(/\.warc\.gz$/, '-kept.warc.gz') });
    assert.equal(applied.action, 'skipped');
    assert.match(applied.reason ?? '', new RegExp(`repeats ${runs[0]![1]!.responseRecordId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(index.byRecordId(runs[0]![1]!.responseRecordId), 'the repeated response stays indexed');
    index.close();
    assert.ok(existsSync(join(archive, week0.file)));
    assert.ok(!existsSync(join(archive, PRUNE_JOURNAL)));
  });

  it('a prune killed after writing the new file but before the index moved: the next one undoes it, losing nothing', async () => {
    const { archive, corpus } = await fourWeeks();
    const index = openArchiveIndex(archive);
    const plan = await planArchivePrune(index.database, corpus, new Date(week(3).getTime() - 1).toISOString());
    const mixed = plan.files.find((file) => file.action === 'rewrite')!;
    // The state a kill leaves between the copy and the transaction: the journal, the new file, the old rows.
    const replacement = mixed.file.replace(/\.warc\.gz$/, '-copy.warc.gz');
    writeFileSync(join(archive, PRUNE_JOURNAL), JSON.stringify({ old: mixed.file, replacement }));
    copyFileSync(join(archive, mixed.file), join(archive, replacement));
    const rows = allRows(archive);
    assert.match(recoverInterruptedPrune(archive, index.database) ?? '', /^undid the rewrite/);
    index.close();
    assert.ok(!existsSync(join(archive, replacement)));
    assert.ok(existsSync(join(archive, mixed.file)));
    assert.deepEqual(allRows(archive), rows);
  });

  it('a prune killed after the index moved but before the old file went: the next one finishes it', async () => {
    const { archive, corpus } = await fourWeeks();
    const saved = join(work, `saved-${made}`);
    cpSync(join(archive, 'warc'), saved, { recursive: true });
    const index = openArchiveIndex(archive);
    const plan = await planArchivePrune(index.database, corpus, new Date(week(3).getTime() - 1).toISOString());
    const mixed = plan.files.find((file) => file.action === 'rewrite')!;
    const applied = applyFilePrune(mixed, { archiveDir: archive, db: index.database, replacementName: (old) => old.replace(/\.warc\.gz$/, '-kept.warc.gz') });
    assert.equal(applied.action, 'rewritten');
    // Put the old file back and the journal: as if the kill came just before its removal.
    copyFileSync(join(saved, mixed.file.replace(/^warc\//, '')), join(archive, mixed.file));
    writeFileSync(join(archive, PRUNE_JOURNAL), JSON.stringify({ old: mixed.file, replacement: applied.replacement }));
    assert.match(recoverInterruptedPrune(archive, index.database) ?? '', /^finished the removal/);
    index.close();
    assert.ok(!existsSync(join(archive, mixed.file)));
    assert.ok(existsSync(join(archive, applied.replacement!)));
    const report = await verifyArchivedEvidence({ archiveDir: archive, corpusDir: corpus });
    assert.deepEqual(report.problems, []);
  });
});
