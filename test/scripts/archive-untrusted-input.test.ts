/**
 * The auditor's commands on an archive handed over by someone else, end to end: the real CLI on the archive
 * two real `hra links check` runs wrote through the loopback fixture proxy, pruned as the operator prunes it,
 * then damaged as a hostile archive would be (a gzip bomb, a FIFO, a 3·10^9 length). Each damage is one
 * `hra:` line naming the file and record, exit 1, with peak memory under 400 MB.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openArchiveIndex } from '../../build/archive/archive-index.ts';
import { MAX_RECORD_BYTES } from '../../build/archive/archive-read-limits.ts';
import { warcPayloadDigest } from '../../build/archive/payload-digest.ts';
import { writeZeroBomb } from '../support/craft-warc-member.ts';
import { startLinkFixture, type LinkFixture } from '../../scripts/loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../support/link-test-corpus.ts';
import { hraEnv, lastJsonLine, lastLine, ROOT, runHra, runHraAsync, stderrLines, TSX_NODE_ARGS } from '../support/run-hra.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const work = makeTempDir('hra-archive-untrusted-');
const URLS = ['http://pages.test/program-a', 'http://redirects.test/redirect/2/program-b', 'http://dead.test/missing', 'http://pages.test/'];
/** The peak RSS the issue sets for each command on a bomb. */
const RSS_LIMIT_KB = 400 * 1024;

/** Peak RSS (KiB, GNU time's %M) and the run of `hra args`. */
function measured(args: readonly string[]): { status: number | null; stderr: string; maxRssKb: number } {
  const run = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, ...TSX_NODE_ARGS, join(ROOT, 'scripts/hra.ts'), ...args], { env: hraEnv(), encoding: 'utf8', timeout: 300_000 });
  const rss = /maxrss=(\d+)\s*$/.exec(run.stderr);
  assert.ok(rss, run.stderr);
  return { status: run.status, stderr: run.stderr.slice(0, rss.index), maxRssKb: Number(rss[1]) };
}

function hraLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('hra: '));
}

describe('the auditor\'s commands on a received archive', () => {
  let fixture: LinkFixture;
  const dir = join(work, 'run');
  const corpus = join(dir, 'corpus');
  const archive = join(dir, 'archive');
  let snapshot = '';

  before(async () => {
    fixture = await startLinkFixture();
    writeLinkTestCorpus(corpus, { extraUrls: URLS });
    for (const at of ['2026-11-13T06:00:00Z', '2026-11-20T06:00:00Z']) {
      const run = await runHraAsync(['links', 'check', '--corpus', corpus, '--at', at, '--archive', archive, '--max-age-days', '1', '--host-interval-ms', '0',
        '--timeout-ms', '3000', '--retries', '0', '--no-quotes', '--proxy', fixture.proxyUrl, ...URLS.flatMap((url) => ['--url', url])]);
      assert.equal(run.status, 0, run.stderr);
    }
    const build = runHra(['build', '--corpus', corpus, '--out', join(dir, 'dist')]);
    assert.equal(build.status, 0, build.stderr);
    snapshot = join(dir, 'dist', `${lastLine(build.stdout)}.sqlite`);
  });
  after(() => fixture.close());

  it('pass in the auditor\'s order after archive prune --keep-weeks 0: replay counts the pruned lines as verify does', async () => {
    const pruned = runHra(['archive', 'prune', '--archive', archive, '--keep-weeks', '0', '--json']);
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.ok((lastJsonLine(pruned).removedRecords as number) > 0, pruned.stdout);
    const digest = runHra(['digest', '--corpus', corpus]);
    assert.equal(digest.status, 0, digest.stderr);
    const verify = runHra(['verify', snapshot, '--corpus', corpus, '--archive', archive]);
    assert.equal(verify.status, 0, verify.stderr);
    const prunedByVerify = Number(/, (\d+) pruned$/m.exec(verify.stderr)?.[1]);
    assert.ok(prunedByVerify > 0, verify.stderr);
    const replay = await runHraAsync(['quotes', 'replay', '--corpus', corpus, '--archive', archive, '--verify', '--json']);
    assert.equal(replay.status, 0, replay.stderr);
    const result = lastJsonLine(replay) as { checked: number; differ: number; pruned: number };
    assert.equal(result.differ, 0);
    assert.ok(result.checked > 0);
    assert.equal(result.pruned, prunedByVerify, 'a pruned record\'s lines are counted by both');
  });

  describe('damaged as a hostile archive would be', () => {
    const damaged = join(work, 'damaged');
    const damagedCorpus = join(damaged, 'corpus');
    const damagedArchive = join(damaged, 'archive');
    let row: { recordId: string; file: string; offset: number; length: number; targetUri: string; warcDate: string; payloadSha256: string };

    /** The latest response of program-a, which the latest line names (a revisit's response would do as well). */
    before(() => {
      cpSync(dir, damaged, { recursive: true });
      const index = openArchiveIndex(damagedArchive, { readonly: true });
      const lines = readFileSync(join(damagedCorpus, 'evidence/link-checks.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { url: string; warcRecordId?: string });
      let found = index.byRecordId(lines.filter((line) => line.url === URLS[0] && line.warcRecordId).at(-1)!.warcRecordId!)!;
      if (found.type === 'revisit') found = index.byRecordId(found.refersTo!)!;
      row = found as typeof row;
      index.close();
    });

    const setRow = (changes: Record<string, unknown>) => {
      const index = openArchiveIndex(damagedArchive);
      for (const [column, value] of Object.entries(changes)) index.database.prepare(`UPDATE records SET ${column} = ? WHERE record_id = ?`).run(value, row.recordId);
      index.close();
    };

    it('a gzip bomb of a few MB (1 GiB of zeros) in place of a response: each command refuses it on one line, under 400 MB', async () => {
      const file = join(damagedArchive, row.file);
      const bombFile = join(damaged, 'bomb.gz');
      // The same id, URI, date and digest as the row: only the bounds can refuse it.
      const length = await writeZeroBomb(bombFile, {
        id: row.recordId, url: row.targetUri, date: row.warcDate,
        warcLines: [`WARC-Payload-Digest: ${warcPayloadDigest(row.payloadSha256)}`],
      }, 1024 ** 3);
      assert.ok(length < 5 * 1024 * 1024, `${length} bytes on disk`);
      const offset = statSync(file).size;
      appendFileSync(file, readFileSync(bombFile));
      setRow({ offset, length });
      const problem = new RegExp(`${escape(row.file)} record ${escape(row.recordId)}: the member at offset ${offset} inflates past \\d+ bytes`);
      const runs = {
        verify: measured(['verify', snapshot, '--corpus', damagedCorpus, '--archive', damagedArchive]),
        replay: measured(['quotes', 'replay', '--corpus', damagedCorpus, '--archive', damagedArchive, '--verify']),
        // Without the index: a WARC file of the bomb alone.
        check: measured(['quotes', 'check', '--warc', bombFile, '--record', row.recordId, '--quote', 'Home Repair Grant']),
      };
      for (const [name, run] of Object.entries(runs)) {
        process.stderr.write(`# ${name} on the bomb: peak RSS ${(run.maxRssKb / 1024).toFixed(0)} MiB\n`);
        assert.equal(run.status, 1, `${name}: ${run.stderr}`);
        assert.ok(run.maxRssKb < RSS_LIMIT_KB, `${name}: peak RSS ${run.maxRssKb} KiB`);
      }
      assert.ok(runs.verify.stderr.split('\n').some((line) => problem.test(line)), runs.verify.stderr);
      assert.match(hraLines(runs.replay.stderr).join('\n'), problem);
      assert.deepEqual(hraLines(runs.check.stderr), [`hra: ${bombFile}: cannot be read as WARC while looking for record ${row.recordId} (at offset 0: the member at offset 0 inflates past ${MAX_RECORD_BYTES} bytes, more than any record a run writes)`]);
    });

    it('a FIFO named by a row, and a length of 3·10^9: one hra: line naming file and record, exit 1, no hang', async () => {
      const cases: Array<[string, () => void, RegExp]> = [
        ['fifo', () => { setRow({ file: 'warc/fifo.warc.gz' }); execFileSync('mkfifo', [join(damagedArchive, 'warc/fifo.warc.gz')]); }, /warc\/fifo\.warc\.gz record \S+: is a FIFO, not a regular file$/],
        ['length', () => setRow({ file: row.file, length: 3e9 }), /record \S+: length 3000000000 is past the \d+ bytes a record's member may take$/],
      ];
      for (const [name, damage, problem] of cases) {
        damage();
        const replay = await runHraAsync(['quotes', 'replay', '--corpus', damagedCorpus, '--archive', damagedArchive, '--verify']);
        assert.equal(replay.status, 1, `${name}: ${replay.stderr}`);
        assert.equal(hraLines(replay.stderr).length, 1, replay.stderr);
        assert.match(hraLines(replay.stderr)[0]!, problem);
      }
      rmSync(join(damagedArchive, 'warc/fifo.warc.gz'));
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
