/**
 * A publish by rename over the served file under load, in a real `hra serve` process (issue 33, item 2):
 * the rename unlinks the old inode, which moves its ctime, and that must read as a swap, not as a write.
 * Eight keep-alive clients hammer every route class while, in turn, a copy of the same revision, the next
 * revision (with its sidecars) and a damaged file are renamed over the served path; every answer is counted.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checksumFileOf } from '../../../build/snapshot/snapshot-checksum.ts';
import { segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
import { copySnapshotWithDigests } from '../../support/segmented-snapshot.ts';
import { get, publishTwoRevisions, spawnServe, type ServeProcess, type TwoRevisions } from './serve-process.ts';

const LOOPS = 8;
const PATHS = ['/api/programs/alpha', '/api/programs/alpha?status=available', '/api/programs/beta/b-repair', '/api/changes?since=2026-01-01', '/api/cities', '/api/sample', '/readyz'];
/** Each phase's wait for the gateway's log line; the files are small, so this is only a bound for a busy machine. */
const PHASE_BOUND_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a publish by rename over the served file, under load', () => {
  let revisions: TwoRevisions;
  let served: string;
  let server: ServeProcess;
  before(async () => {
    revisions = await publishTwoRevisions();
    // The dataset path names a plain file (no link to repoint): the publish can only rename over it.
    served = join(revisions.out, 'served.sqlite');
    copySnapshotWithDigests(revisions.a.file, served);
    server = await spawnServe(['--dataset', served, '--keys', revisions.keysFile, '--limits', revisions.limitsFile]);
    assert.notEqual(server.url, '', server.stderr());
  });
  after(async () => {
    server?.kill();
    await server?.exited;
    revisions?.remove();
  });

  /** Stages `from` (and, with `sidecars`, its `.sha256` and `.segments`) beside the served file and renames it over. */
  const renameOver = (from: string, options: { sidecars: boolean; damage?: boolean }) => {
    const staged = join(revisions.out, '.staged.sqlite');
    copySnapshotWithDigests(from, staged);
    if (options.damage === true) {
      const bytes = readFileSync(staged);
      const at = bytes.lastIndexOf('Alpha Roof Repair Grant') + 3;
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      writeFileSync(staged, bytes);
    }
    if (options.sidecars) {
      renameSync(checksumFileOf(staged), checksumFileOf(served));
      renameSync(segmentsFileOf(staged), segmentsFileOf(served));
    }
    renameSync(staged, served);
  };

  it('a same-revision restore, the next revision and a damaged file, each renamed over: zero non-2xx answers, the old revision serving until the new file verifies', async (t) => {
    const { a, b } = revisions;
    let running = true;
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const seen: string[][] = [];
    const loops = Array.from({ length: LOOPS }, async (_, index) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const revisionsSeen: string[] = [];
      seen.push(revisionsSeen);
      for (let n = index; running; n++) {
        const path = PATHS[n % PATHS.length] ?? '/api/sample';
        try {
          const response = await get(`${server.url}${path}`, agent, { 'X-Api-Key': revisions.commercialKey });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status < 200 || response.status > 299) failures.push(`${path}: ${response.status} ${response.body.slice(0, 200)}`);
          else if (path !== '/readyz') revisionsSeen.push(response.revision ?? 'none');
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
      agent.destroy();
    });
    // Log lines stamped at or after `since` (Date.now() before the rename).
    const stampedSince = (line: Record<string, unknown>, since: number) => Date.parse(String(line.time)) >= since;
    const swapTo = (revision: string, since: number) => server.waitForLog((line) => line.revision === revision && typeof line.previous === 'string' && stampedSince(line, since), PHASE_BOUND_MS);

    try {
      await sleep(300);
      // 1. The same revision restored by `mv`: a new inode of the same bytes, hashed once, then served.
      let since = Date.now();
      renameOver(a.file, { sidecars: false });
      const restored = await swapTo(a.revision, since);
      assert.equal(restored.hashed, true, 'the new inode was checked before it served');
      await sleep(300);

      // 2. The next revision published by rename, sidecars first.
      since = Date.now();
      renameOver(b.file, { sidecars: true });
      await swapTo(b.revision, since);
      await sleep(300);

      // 3. A damaged copy renamed over: refused, and B keeps serving through the watch's checks and the link poll.
      since = Date.now();
      renameOver(b.file, { sidecars: true, damage: true });
      await server.waitForLog((line) => typeof line.msg === 'string' && line.msg.includes('new snapshot refused, still serving') && stampedSince(line, since), PHASE_BOUND_MS);
      await sleep(1_500);
    } finally {
      running = false;
      await Promise.all(loops);
    }

    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    t.diagnostic(`${total} requests on ${LOOPS} keep-alive connections over three renames; statuses ${JSON.stringify(Object.fromEntries(statuses))}; non-2xx or failed: ${failures.length}`);
    assert.deepEqual(failures, [], 'no answer other than a 2xx');
    for (const [index, revisionsSeen] of seen.entries()) {
      const runs = revisionsSeen.filter((revision, at) => at === 0 || revision !== revisionsSeen[at - 1]);
      assert.deepEqual(runs, [a.revision, b.revision], `connection ${index}: A until B verified, then B, through the damaged file`);
    }
    assert.equal(server.logLines().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('snapshot failed')).length, 0, 'no rename was taken for a write');
  });
});
