/**
 * `hra verify --archive` and `hra archive prune` end to end: the real CLI on a corpus whose evidence lines name
 * records of an archive written by the archive's own writer (weekly runs, dated at will), and on the archive of
 * two real `hra links check` runs through the loopback fixture proxy; each corpus built into a real snapshot.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';
import { archiveRun } from '../support/evidence-archive-fixture.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { lastJsonLine, lastLine, runHra, runHraAsync, stderrLines } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-archive-commands-');
let made = 0;
const URLS = ['http://same.test/program', 'http://moving.test/program'];

/** A corpus beside its archive (the default layout), three weekly runs ending now, and a built snapshot. */
async function archivedCorpus() {
  const dir = join(work, `case-${++made}`);
  const corpus = writeLinkTestCorpus(join(dir, 'corpus'), { extraUrls: URLS });
  const archive = join(dir, 'archive');
  const now = Date.now();
  for (let n = 0; n < 3; n++) {
    await archiveRun(archive, corpus, new Date(now - (2 - n) * 7 * 86_400_000 - 3_600_000), [
      { url: URLS[0]!, body: '<p>Grants up to $5,000.</p>' },
      { url: URLS[1]!, body: `<p>Week ${n}</p>`, hops: 1 },
    ], 7000 + n);
  }
  const build = runHra(['build', '--corpus', corpus, '--out', join(dir, 'dist')]);
  assert.equal(build.status, 0, build.stderr);
  return { dir, corpus, archive, snapshot: join(dir, 'dist', `${lastLine(build.stdout)}.sqlite`) };
}

function warcFiles(archive: string): string[] {
  return (readdirSync(join(archive, 'warc'), { recursive: true }) as string[]).filter((name) => name.endsWith('.warc.gz')).sort();
}

function indexRows(archive: string): number {
  const index = openArchiveIndex(archive, { readonly: true });
  try {
    return (index.database.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
  } finally {
    index.close();
  }
}

describe('hra verify --archive', () => {
  it('passes on the archive the evidence names, and fails naming each record missing or wrong', async () => {
    const { corpus, archive, snapshot } = await archivedCorpus();
    const ok = runHra(['verify', snapshot, '--corpus', corpus, '--archive', archive, '--json']);
    assert.equal(ok.status, 0, ok.stderr);
    const summary = lastJsonLine(ok) as { archive: { archived: number; records: number; problems: string[]; notArchived: number } };
    assert.equal(summary.archive.archived, 6);
    assert.deepEqual(summary.archive.problems, []);
    assert.ok(summary.archive.notArchived > 0, 'the corpus\'s older lines have no record');
    assert.match(ok.stderr, /^archive: \d+ evidence lines, 6 name a record \(6 records, 4 payloads hashed\), \d+ not archived, 0 pruned$/m);

    // Damage the latest run's response of the moving page, and delete the oldest file.
    const files = warcFiles(archive);
    const index = openArchiveIndex(archive, { readonly: true });
    const latest = index.database.prepare("SELECT record_id AS recordId, file, offset, length FROM records WHERE type = 'response' AND target_uri = ? ORDER BY warc_date DESC LIMIT 1")
      .get(URLS[1]) as { recordId: string; file: string; offset: number; length: number };
    index.close();
    assert.equal(latest.file, `warc/${files.at(-1)!}`);
    const bytes = readFileSync(join(archive, latest.file));
    bytes[latest.offset + Math.floor(latest.length / 2)]! ^= 0xff;
    writeFileSync(join(archive, latest.file), bytes);
    rmSync(join(archive, 'warc', files[0]!));
    const failed = runHra(['verify', snapshot, '--corpus', corpus, '--archive', archive]);
    assert.equal(failed.status, 1, failed.stderr);
    const lines = stderrLines(failed);
    assert.match(lines.at(-1)!, new RegExp(`^hra: verify failed: ${archive}: archive: \\d+ records? missing or wrong \\(listed above\\)$`));
    const named = lines.filter((line) => / record <urn:uuid:[0-9a-f-]+>: /.test(line));
    assert.ok(named.some((line) => line.startsWith(`warc/${files[0]!} record `) && line.endsWith('file is missing')), named.join('\n'));
    assert.ok(named.some((line) => line.startsWith(`${latest.file} record ${latest.recordId}: `)), named.join('\n'));
  });

  it('refuses a missing archive on one line, before any work (no corpus is loaded)', () => {
    const run = runHra(['verify', 'package.json', '--corpus', 'corpus', '--archive', join(work, 'no-archive'), '--json']);
    assert.equal(run.status, 1);
    assert.deepEqual(stderrLines(run), [`hra: --archive ${join(work, 'no-archive')}: WARC archive folder not found`]);
    assert.equal(lastJsonLine(run).ok, false);
  });
});

describe('hra archive prune', () => {
  it('--dry-run removes nothing; a prune keeps what the evidence rests on, after which verify --archive passes', async () => {
    const { corpus, archive, snapshot } = await archivedCorpus();
    const files = warcFiles(archive);
    const rows = indexRows(archive);
    const dry = runHra(['archive', 'prune', '--archive', archive, '--keep-weeks', '0', '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(lastLine(dry.stdout), /^would remove 12 records written before \S+ from 3 files \([\d.]+ MiB\); kept 6: 0 within the window, 2 named by evidence, 1 repeated by a kept revisit, 3 requests of kept records$/);
    assert.deepEqual(warcFiles(archive), files);
    assert.equal(indexRows(archive), rows);

    // The default --corpus: `corpus` beside the archive.
    const pruned = runHra(['archive', 'prune', '--archive', archive, '--keep-weeks', '0', '--json']);
    assert.equal(pruned.status, 0, pruned.stderr);
    const summary = lastJsonLine(pruned) as { ok: boolean; removedRecords: number; keptRecords: number; corpus: string; files: Array<{ action: string }> };
    assert.equal(Object.keys(summary)[0], 'ok', 'the --json success shape');
    assert.equal(summary.ok, true);
    assert.equal(summary.corpus, corpus);
    assert.equal(summary.removedRecords, 12);
    assert.equal(indexRows(archive), rows - 12);
    assert.ok(summary.files.some((file) => file.action === 'rewritten'), JSON.stringify(summary.files));
    const verified = runHra(['verify', snapshot, '--corpus', corpus, '--archive', archive]);
    assert.equal(verified.status, 0, verified.stderr);
    assert.match(verified.stderr, /^archive: .* 3 pruned$/m);
  });

  it('refuses an evidence line it cannot read on one hra: line naming file and line, pruning nothing', () => {
    const dir = join(work, `bad-line-${++made}`);
    openArchiveIndex(join(dir, 'archive')).close();
    mkdirSync(join(dir, 'corpus', 'evidence'), { recursive: true });
    writeFileSync(join(dir, 'corpus', 'evidence', 'link-checks.ndjson'), '{"url": "http://a.test/", "checkedAt": "2026-11-20"}\n{"url": \n');
    const run = runHra(['archive', 'prune', '--archive', join(dir, 'archive'), '--keep-weeks', '0']);
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(stderrLines(run).map((line) => line.replace(/ \(.*\)$/, '')), [`hra: ${join(dir, 'corpus', 'evidence', 'link-checks.ndjson')}:2: not a JSON line`]);
  });

  const BAD: Array<[string, string[], RegExp]> = [
    ['a missing archive', ['--archive', '{work}/none', '--keep-weeks', '4'], /^hra: --archive \S+\/none: WARC archive folder not found$/],
    ['a folder without an index', ['--archive', '{work}/empty', '--keep-weeks', '4'], /^hra: --archive \S+\/empty: no index\.sqlite in it: not an evidence archive$/],
    ['--keep-weeks not a whole number', ['--archive', '{work}/empty', '--keep-weeks', '2.5'], /^hra: --keep-weeks "2\.5": must be a whole number of weeks, 0 or more$/],
    ['--keep-weeks negative', ['--archive', '{work}/empty', '--keep-weeks', '-1'], /^hra: --keep-weeks "-1": must be a whole number of weeks, 0 or more$/],
    ['a missing --keep-weeks', ['--archive', '{work}/empty'], /^hra: required option '--keep-weeks <n>' not specified$/],
  ];
  for (const [name, args, expected] of BAD) {
    it(`refuses ${name} on one hra: line (and a --json failure object)`, () => {
      mkdirSync(join(work, 'empty'), { recursive: true });
      const run = runHra(['archive', 'prune', ...args.map((arg) => arg.replace('{work}', work)), '--json']);
      assert.equal(run.status, 1, run.stderr);
      const lines = stderrLines(run);
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, expected);
      assert.equal(lastJsonLine(run).ok, false);
    });
  }
});

describe('hra archive reindex', () => {
  it('rebuilds a deleted index.sqlite with the same rows, and says the rows are the same when rebuilt over it', async () => {
    const dir = join(work, `reindex-${++made}`);
    const archive = join(dir, 'archive');
    for (let n = 0; n < 2; n++) {
      await archiveRun(archive, join(dir, 'corpus'), new Date(Date.UTC(2026, 10, 2 + 7 * n, 6)), [
        { url: URLS[0]!, body: '<p>Grants up to $5,000.</p>' }, { url: URLS[1]!, body: `<p>Week ${n}</p>`, hops: 1 },
      ], 7100 + n);
    }
    const rows = () => {
      const index = openArchiveIndex(archive, { readonly: true });
      try {
        return index.allRows();
      } finally {
        index.close();
      }
    };
    const before = rows();
    const same = runHra(['archive', 'reindex', '--archive', archive]);
    assert.equal(same.status, 0, same.stderr);
    assert.equal(lastLine(same.stdout), `reindexed ${before.length} records from 2 WARC files: the same rows as the index it replaced`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(archive, `index.sqlite${suffix}`), { force: true });
    const rebuilt = runHra(['archive', 'reindex', '--archive', archive, '--json']);
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    const summary = lastJsonLine(rebuilt) as { ok: boolean; files: number; records: number; previous: unknown };
    assert.deepEqual([summary.ok, summary.files, summary.records, summary.previous], [true, 2, before.length, null]);
    assert.deepEqual(rows(), before);
  });

  it('refuses a missing folder and a file that is not WARC on one hra: line, the index left as it was', async () => {
    const dir = join(work, `reindex-bad-${++made}`);
    const archive = join(dir, 'archive');
    await archiveRun(archive, join(dir, 'corpus'), new Date(Date.UTC(2026, 10, 2, 6)), [{ url: URLS[0]!, body: '<p>x</p>' }], 7200);
    const missing = runHra(['archive', 'reindex', '--archive', join(dir, 'none')]);
    assert.equal(missing.status, 1, missing.stderr);
    assert.deepEqual(stderrLines(missing), [`hra: --archive ${join(dir, 'none')}: WARC archive folder not found`]);
    const [file] = warcFiles(archive);
    writeFileSync(join(archive, 'warc', file!), Buffer.concat([readFileSync(join(archive, 'warc', file!)), Buffer.from('junk')]));
    const before = indexRows(archive);
    const torn = runHra(['archive', 'reindex', '--archive', archive]);
    assert.equal(torn.status, 1, torn.stderr);
    assert.equal(stderrLines(torn).length, 1, torn.stderr);
    assert.match(stderrLines(torn)[0]!, new RegExp(`^hra: warc/${file!.replace(/\./g, '\\.')}: cannot be read as WARC after offset \\d+ \\(4 bytes that are no whole record\\); nothing was reindexed$`));
    assert.equal(indexRows(archive), before);
  });
});

describe('on the archive of a real links check (through the loopback fixture proxy)', () => {
  let fixture: LinkFixture;
  before(async () => {
    fixture = await startLinkFixture();
  });
  after(() => fixture.close());

  it('verify --archive passes on a fresh archive, fails naming an edited payload\'s record; a prune keeps every bound record and verify still passes', async () => {
    const dir = join(work, `links-${++made}`);
    const urls = ['http://pages.test/program-a', 'http://redirects.test/redirect/2/program-b', 'http://dead.test/missing', 'http://pages.test/'];
    const corpus = writeLinkTestCorpus(join(dir, 'corpus'), { extraUrls: urls });
    const archive = join(dir, 'archive');
    const check = (at: string) => runHraAsync(['links', 'check', '--corpus', corpus, '--at', at, '--max-age-days', '1', '--host-interval-ms', '0', '--timeout-ms', '3000', '--retries', '0', '--no-quotes', '--proxy', fixture.proxyUrl, ...urls.flatMap((url) => ['--url', url])]);
    for (const at of ['2026-11-13T06:00:00Z', '2026-11-20T06:00:00Z']) {
      const run = await check(at);
      assert.equal(run.status, 0, run.stderr);
    }
    const lines = readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { url: string; warcRecordId?: string });
    const archived = lines.filter((line) => line.warcRecordId !== undefined);
    assert.equal(archived.length, urls.length * 2, 'every attempt of both runs names its record');
    const build = runHra(['build', '--corpus', corpus, '--out', join(dir, 'dist')]);
    assert.equal(build.status, 0, build.stderr);
    const snapshot = join(dir, 'dist', `${lastLine(build.stdout)}.sqlite`);
    const verify = () => runHra(['verify', snapshot, '--corpus', corpus, '--archive', archive, '--json']);
    const fresh = verify();
    assert.equal(fresh.status, 0, fresh.stderr);
    assert.deepEqual((lastJsonLine(fresh).archive as { problems: string[] }).problems, []);

    // Prune everything a window of 0 weeks allows: the bound records stay and verify still passes.
    const pruned = runHra(['archive', 'prune', '--archive', archive, '--keep-weeks', '0', '--json']);
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.ok((lastJsonLine(pruned).removedRecords as number) > 0, pruned.stdout);
    const after = verify();
    assert.equal(after.status, 0, after.stderr);

    // Edit the payload of the latest attempt of program-a (re-compressed, index adjusted): verify names its record.
    const latest = archived.filter((line) => line.url === urls[0]).at(-1)!.warcRecordId!;
    const index = openArchiveIndex(archive);
    let row = index.byRecordId(latest)!;
    if (row.type === 'revisit') row = index.byRecordId(row.refersTo!)!;
    const bytes = readFileSync(join(archive, row.file));
    const member = gunzipSync(bytes.subarray(row.offset, row.offset + row.length));
    // The heading: a link check archives the page up to its first </h1>, so text after it is not in the payload.
    const text = member.toString('latin1');
    const editedText = text.replace('Home Repair Grant</h1>', 'Home Repair Grunt</h1>');
    assert.notEqual(editedText, text, 'the archived payload holds the heading the edit changes');
    const edited = gzipSync(Buffer.from(editedText, 'latin1'));
    writeFileSync(join(archive, row.file), Buffer.concat([bytes.subarray(0, row.offset), edited, bytes.subarray(row.offset + row.length)]));
    index.database.prepare('UPDATE records SET offset = offset + ? WHERE file = ? AND offset > ?').run(edited.length - row.length, row.file, row.offset);
    index.database.prepare('UPDATE records SET length = ? WHERE record_id = ?').run(edited.length, row.recordId);
    index.close();
    const failed = verify();
    assert.equal(failed.status, 1, failed.stderr);
    assert.ok(stderrLines(failed).some((line) => line.startsWith(`${row.file} record ${row.recordId}: payload sha256 `)), failed.stderr);
  });
});
