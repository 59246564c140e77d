/**
 * reindexArchive: index.sqlite rebuilt from the WARC files alone holds the very rows the writer indexed, on a
 * fresh archive, after a prune rewrote files, and after a killed run left a torn `.open` file.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { ArchiveLockedError } from '../../../build/archive/archive-lock.ts';
import { ARCHIVE_INDEX_SCHEMA_VERSION, ArchiveIndexSchemaError, openArchiveIndex, type ArchiveIndexRow } from '../../../build/archive/archive-index.ts';
import { type ArchiveExchange, openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { pruneArchive } from '../../../build/archive/prune-archive.ts';
import { readArchivedRecord } from '../../../build/archive/read-archived-record.ts';
import { REINDEX_FILE, ReindexError, reindexArchive } from '../../../build/archive/reindex-archive.ts';
import { archiveRun } from '../../support/evidence-archive-fixture.ts';
import { writeSecondSchemaIndex } from '../../support/second-schema-index.ts';
import { makeTempDir } from '../../support/temp-dir.ts';
import { warcFiles } from '../../support/warc-files.ts';

const work = makeTempDir('hra-reindex-');
let made = 0;
const fresh = () => join(work, `a${++made}`);
const week = (n: number) => new Date(Date.UTC(2026, 9, 5 + 7 * n, 6));
const dead = () => false;

function exchange(url: string, body: string, date: Date, extra: Partial<ArchiveExchange['response']> = {}): ArchiveExchange {
  return {
    targetUri: url, date, ipAddress: '127.0.0.1',
    request: { method: body === '' ? 'HEAD' : 'GET', headers: [['User-Agent', 'hra-test']] },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/html']], payload: Buffer.from(body), ...extra },
  };
}

function rows(archive: string): ArchiveIndexRow[] {
  const index = openArchiveIndex(archive, { readonly: true });
  try {
    return index.allRows();
  } finally {
    index.close();
  }
}

function dropIndex(archive: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(archive, `index.sqlite${suffix}`), { force: true });
}

const KILLED_WRITER = fileURLToPath(new URL('../../support/killed-archive-writer.ts', import.meta.url));

/** A writer in a process of its own writes and indexes one exchange and is killed (SIGKILL): what a killed run leaves. */
async function killWriterAfterOneExchange(archive: string, pid: number, date: Date, url: string, body: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', KILLED_WRITER, archive, String(pid), date.toISOString(), url, body], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => { out += chunk; if (out.includes('written\n')) resolve(); });
    child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before it wrote`)));
  });
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Every kind of row the writer makes, over rolled files: responses, revisits, empty HEADs, a truncated read, requests. */
async function writtenArchive(pid = 6100): Promise<string> {
  const archive = fresh();
  for (const [n, date] of [week(0), week(1)].entries()) {
    const writer = await openArchiveWriter({ archiveDir: archive, rollBytes: 2000, now: () => date, pid: pid + n, isProcessAlive: dead });
    for (let i = 0; i < 4; i += 1) {
      await writer.writeExchange(exchange(`http://a.test/${i}`, '', date));
      await writer.writeExchange(exchange(`http://a.test/${i}`, `<h1>Page ${i}</h1>${'x'.repeat(200 * i)}`, date));
    }
    await writer.writeExchange(exchange('http://b.test/long', `<h1>Week ${n}</h1>`, date, { truncated: 'length' }));
    await writer.close();
  }
  return archive;
}

describe('reindexArchive', () => {
  it('rebuilds a lost index with the same rows, which read back as before', async () => {
    const archive = await writtenArchive();
    const before = rows(archive);
    assert.ok(warcFiles(archive).length >= 4, 'rolled files');
    assert.deepEqual([...new Set(before.map((row) => row.type))].sort(), ['request', 'response', 'revisit']);
    dropIndex(archive);
    const summary = await reindexArchive({ archiveDir: archive, isProcessAlive: dead });
    assert.equal(summary.rows, before.length);
    assert.equal(summary.files, warcFiles(archive).length);
    assert.equal(summary.comparison, undefined, 'no index to compare with');
    assert.deepEqual(rows(archive), before);
    assert.equal(existsSync(join(archive, REINDEX_FILE)), false);
    const index = openArchiveIndex(archive, { readonly: true });
    for (const row of before.filter((r) => r.type === 'revisit')) assert.equal((await readArchivedRecord(archive, index, row.recordId)).payloadRow.recordId, row.refersTo);
    index.close();
  });

  it('over an index that is still there, replaces it with the same rows and says so; one that lost rows gets them back', async () => {
    const archive = await writtenArchive(6200);
    const before = rows(archive);
    const same = await reindexArchive({ archiveDir: archive, isProcessAlive: dead });
    assert.deepEqual(same.comparison, { previousRows: before.length, missing: [], missingCount: 0, changed: [], changedCount: 0 });
    assert.deepEqual(rows(archive), before);
    const index = openArchiveIndex(archive);
    index.database.prepare('DELETE FROM records WHERE record_id = ?').run(before[0]!.recordId);
    index.database.prepare('UPDATE records SET target_uri = ? WHERE record_id = ?').run('http://else.test/', before[1]!.recordId);
    index.close();
    const repaired = await reindexArchive({ archiveDir: archive, isProcessAlive: dead });
    assert.deepEqual(repaired.comparison?.changed.slice().sort(), [before[0]!.recordId, before[1]!.recordId].sort());
    assert.deepEqual(rows(archive), before);
  });

  it('turns an index of the first schema, which the writer refuses, into one of this schema with the same rows, comparing them', async () => {
    const archive = await writtenArchive(6300);
    const before = rows(archive);
    dropIndex(archive);
    // The first schema's one wide table, as hra wrote it before issue 39, holding the writer's very rows.
    const first = new Database(join(archive, 'index.sqlite'));
    first.exec(`CREATE TABLE records (record_id TEXT PRIMARY KEY, type TEXT NOT NULL CHECK (type IN ('request', 'response', 'revisit')),
      target_uri TEXT NOT NULL, warc_date TEXT NOT NULL, file TEXT NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL,
      payload_sha256 TEXT, refers_to TEXT, concurrent_to TEXT)`);
    const insert = first.prepare('INSERT INTO records VALUES (@recordId, @type, @targetUri, @warcDate, @file, @offset, @length, @payloadSha256, @refersTo, @concurrentTo)');
    for (const row of before) insert.run({ ...row, targetUri: row === before[0] ? 'http://else.test/' : row.targetUri });
    first.close();
    await assert.rejects(openArchiveWriter({ archiveDir: archive, isProcessAlive: dead }), (error: unknown) => error instanceof ArchiveIndexSchemaError && /hra archive reindex/.test(error.message));
    const lines: string[] = [];
    const summary = await reindexArchive({ archiveDir: archive, isProcessAlive: dead, progress: (line) => lines.push(line) });
    assert.deepEqual(summary.comparison, { previousRows: before.length, missing: [], missingCount: 0, changed: [before[0]!.recordId], changedCount: 1 });
    assert.ok(lines.some((line) => /of the first schema; rebuilding it from the files/.test(line)), lines.join('\n'));
    assert.deepEqual(rows(archive), before);
    const index = openArchiveIndex(archive, { readonly: true });
    assert.equal(index.database.pragma('user_version', { simple: true }), ARCHIVE_INDEX_SCHEMA_VERSION);
    index.close();
  });

  it('turns an index of the second schema (ids as text), which the writer refuses, into one of this schema with the same rows, comparing them', async () => {
    const archive = await writtenArchive(6350);
    const before = rows(archive);
    dropIndex(archive);
    writeSecondSchemaIndex(join(archive, 'index.sqlite'), before.slice(1));
    await assert.rejects(openArchiveWriter({ archiveDir: archive, isProcessAlive: dead }), (error: unknown) => error instanceof ArchiveIndexSchemaError && error.schema === 'older' && /hra archive reindex/.test(error.message));
    const lines: string[] = [];
    const summary = await reindexArchive({ archiveDir: archive, isProcessAlive: dead, progress: (line) => lines.push(line) });
    assert.deepEqual(summary.comparison, { previousRows: before.length - 1, missing: [], missingCount: 0, changed: [before[0]!.recordId], changedCount: 1 });
    assert.ok(lines.some((line) => /of an older schema; rebuilding it from the files/.test(line)), lines.join('\n'));
    assert.deepEqual(rows(archive), before);
    const index = openArchiveIndex(archive, { readonly: true });
    assert.equal(index.database.pragma('user_version', { simple: true }), ARCHIVE_INDEX_SCHEMA_VERSION);
    assert.equal(index.database.prepare("SELECT COUNT(*) FROM index_rows WHERE typeof(record_id) != 'blob' OR length(record_id) != 16").pluck().get(), 0, 'every id the writer wrote is held as its 16 bytes');
    index.close();
  });

  it('after a prune rewrote and removed files, rebuilds the pruned index\'s rows', async () => {
    const dir = join(work, `pruned-${++made}`);
    const archive = join(dir, 'archive');
    const corpus = join(dir, 'corpus');
    for (let n = 0; n < 4; n++) {
      await archiveRun(archive, corpus, week(n), [
        { url: 'http://same.test/program', body: '<p>Grants up to $5,000.</p>' },
        { url: 'http://moving.test/program', body: `<p>Week ${n}</p>`, hops: 1 },
      ], 6300 + n);
    }
    const summary = await pruneArchive({ archiveDir: archive, corpusDir: corpus, keepWeeks: 1, now: new Date(week(3).getTime() + 86_400_000), dryRun: false });
    assert.ok(summary.files.some((file) => 'action' in file && file.action === 'rewritten'), JSON.stringify(summary.files));
    const pruned = rows(archive);
    dropIndex(archive);
    const rebuilt = await reindexArchive({ archiveDir: archive, isProcessAlive: dead });
    assert.equal(rebuilt.rows, pruned.length);
    assert.deepEqual(rows(archive), pruned);
  });

  it('after a killed run, seals its .open file by the old index (a whole record never indexed stays out) and rebuilds the same rows', async () => {
    const archive = await writtenArchive(6400);
    await killWriterAfterOneExchange(archive, 6499, week(2), 'http://a.test/killed', '<h1>Indexed before the kill</h1>');
    // The kill: the file stays .open, a whole record follows that was written but never indexed, then a torn member.
    const open = warcFiles(archive, '.open')[0]!;
    const other = fresh();
    const stray = await openArchiveWriter({ archiveDir: other });
    await stray.writeExchange(exchange('http://a.test/never-indexed', '<h1>stray</h1>', week(2)));
    await stray.close();
    appendFileSync(open, readFileSync(warcFiles(other)[0]!));
    appendFileSync(open, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    const before = rows(archive);
    const summary = await reindexArchive({ archiveDir: archive, isProcessAlive: dead });
    assert.deepEqual(summary.sealed.map((s) => [s.removed, s.cutBytes > 7]), [[false, true]]);
    assert.deepEqual(summary.comparison?.missingCount, 0);
    assert.deepEqual(rows(archive), before);
    assert.ok(!rows(archive).some((row) => row.targetUri === 'http://a.test/never-indexed'));
  });

  it('after a killed run whose index is lost too, cuts the torn tail and indexes every whole record', async () => {
    const archive = await writtenArchive(6500);
    await killWriterAfterOneExchange(archive, 6599, week(2), 'http://a.test/killed', '<h1>Indexed before the kill</h1>');
    const open = warcFiles(archive, '.open')[0]!;
    const whole = statSync(open).size;
    appendFileSync(open, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    const before = rows(archive);
    dropIndex(archive);
    const summary = await reindexArchive({ archiveDir: archive, isProcessAlive: dead });
    assert.deepEqual(summary.sealed.map((s) => [s.removed, s.cutBytes]), [[false, 7]]);
    assert.equal(statSync(open.slice(0, -'.open'.length)).size, whole);
    assert.deepEqual(rows(archive), before);
  });

  it('refuses while a writer runs, and a closed file that is not WARC, naming it; the old index stays as it was', async () => {
    const archive = await writtenArchive(6600);
    const before = rows(archive);
    const writer = await openArchiveWriter({ archiveDir: archive, now: () => week(2), pid: 6699, isProcessAlive: dead });
    await writer.writeExchange(exchange('http://a.test/live', '<h1>live</h1>', week(2)));
    // A running writer holds the archive's lock shared, so reindex (exclusive, as prune) is refused naming it.
    await assert.rejects(reindexArchive({ archiveDir: archive, isProcessAlive: (pid) => pid === 6699, lockWaitMs: 50 }), (error: Error) =>
      error instanceof ArchiveLockedError && /links check \(archive writer\) \(process \d+\) holds the archive's lock/.test(error.message));
    await writer.close();
    const after = rows(archive);
    const file = warcFiles(archive)[0]!;
    const relative = file.slice(archive.length + 1);
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes, Buffer.from('not a gzip member')]));
    await assert.rejects(reindexArchive({ archiveDir: archive, isProcessAlive: dead }), (error: Error) =>
      error instanceof ReindexError && error.message.startsWith(`${relative}: cannot be read as WARC after offset `));
    assert.deepEqual(rows(archive), after);
    assert.equal(after.length, before.length + 2);
    assert.equal(existsSync(join(archive, REINDEX_FILE)), false);
  });
});
