/**
 * Hot swap of revisions in a real `hra serve` process: five swaps in a row under steady keep-alive load,
 * alternating SIGHUP and a repointed `current.sqlite`, and a change-feed walk that crosses a swap.
 */
import * as assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { pointCurrentAt } from '../../../build/snapshot/publish-snapshot.ts';
import { get, publishTwoRevisions, spawnServe, type PublishedRevision, type ServeProcess, type TwoRevisions } from './serve-process.ts';

const LOOPS = 8;
const PATHS = ['/api/programs/alpha', '/api/sample', '/api/changes?since=2026-01-01', '/api/programs/beta/b-repair', '/readyz'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let revisions: TwoRevisions;
before(async () => {
  revisions = await publishTwoRevisions();
});
after(() => revisions.remove());

async function serve(): Promise<ServeProcess> {
  pointCurrentAt(revisions.out, revisions.a.name);
  return spawnServe(['--dataset', revisions.dataset, '--keys', revisions.keysFile, '--limits', revisions.limitsFile]);
}

/** Collapses consecutive repeats: [A, A, B, B, A] -> [A, B, A]. */
function runs(values: readonly string[]): string[] {
  return values.filter((value, index) => index === 0 || value !== values[index - 1]);
}

describe('hot swap under steady load', () => {
  let server: ServeProcess;
  before(async () => {
    server = await serve();
  });
  after(async () => {
    server.kill();
    await server.exited;
  });

  it('five swaps in a row (SIGHUP and a repointed link): no failed request, every connection switches once per swap', async (t) => {
    const { a, b } = revisions;
    let running = true;
    let swap = { target: a.revision, at: performance.now(), seenAt: undefined as number | undefined, seenBy: new Set<number>() };
    const loops = Array.from({ length: LOOPS }, async (_, index) => {
      // One keep-alive connection per loop, so each loop's responses are in its connection's order.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const seen: string[] = [];
      const failures: string[] = [];
      for (let n = index; running; n++) {
        const path = PATHS[n % PATHS.length] ?? '/api/sample';
        try {
          const response = await get(`${server.url}${path}`, agent, { 'X-Api-Key': revisions.commercialKey });
          if (response.status !== 200) failures.push(`${path}: ${response.status} ${response.body}`);
          seen.push(response.revision ?? 'none');
          if (response.revision === swap.target) {
            swap.seenAt ??= performance.now();
            swap.seenBy.add(index);
          }
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
      agent.destroy();
      return { seen, failures };
    });

    const waitForEveryLoop = async (what: string) => {
      const deadline = performance.now() + 30_000;
      while (swap.seenBy.size < LOOPS) {
        assert.ok(performance.now() < deadline, `${what}: not every connection saw ${swap.target} within 30 s`);
        await sleep(5);
      }
    };
    await waitForEveryLoop('warm-up');
    await sleep(300);

    const latencies: Array<{ via: string; ms: number }> = [];
    for (let index = 0; index < 5; index++) {
      const target: PublishedRevision = index % 2 === 0 ? b : a;
      const via = index % 2 === 0 ? 'SIGHUP' : 'link';
      swap = { target: target.revision, at: performance.now(), seenAt: undefined, seenBy: new Set() };
      pointCurrentAt(revisions.out, target.name);
      if (via === 'SIGHUP') server.kill('SIGHUP');
      await waitForEveryLoop(`swap ${index + 1}`);
      latencies.push({ via, ms: Math.round((swap.seenAt ?? Number.NaN) - swap.at) });
      await sleep(300);
    }
    running = false;
    const results = await Promise.all(loops);

    const requests = results.reduce((sum, result) => sum + result.seen.length, 0);
    const failures = results.flatMap((result) => result.failures);
    t.diagnostic(`${requests} requests on ${LOOPS} keep-alive connections, ${failures.length} failed`);
    t.diagnostic(`swap latency (signal or repoint -> first response with the new revision): ${latencies.map((latency) => `${latency.via} ${latency.ms} ms`).join(', ')}`);
    assert.deepEqual(failures, []);
    for (const [index, result] of results.entries()) {
      assert.ok(result.seen.every((revision) => revision === a.revision || revision === b.revision), `connection ${index} saw only A and B`);
      assert.deepEqual(runs(result.seen), [a.revision, b.revision, a.revision, b.revision, a.revision, b.revision], `connection ${index} switched once per swap`);
    }

    const swaps = server.logLines().filter((line) => typeof line.trigger === 'string' && typeof line.previous === 'string');
    assert.deepEqual(swaps.map((line) => line.revision), [b.revision, a.revision, b.revision, a.revision, b.revision]);
    assert.ok(swaps.some((line) => line.trigger === 'SIGHUP'), 'SIGHUP swaps');
    assert.equal(swaps[1]?.trigger, 'dataset repointed');
    assert.equal(swaps[3]?.trigger, 'dataset repointed');
    // Only B's first appearance is hashed; every later swap returns to a file verified earlier and unchanged.
    assert.deepEqual(swaps.map((line) => line.hashed), [true, false, false, false, false]);
  });
});

describe('a change-feed cursor across a swap (spec 4.3 rule 3)', () => {
  let server: ServeProcess;
  before(async () => {
    server = await serve();
  });
  after(async () => {
    server.kill();
    await server.exited;
  });

  interface Feed { changes: Array<{ id: number }>; datasetRevision: string; snapshotMaxId: number; hasMore: boolean; nextCursor: string | null }
  const agent = new Agent({ keepAlive: true });
  after(() => agent.destroy());
  const feed = async (query: string): Promise<Feed> => {
    const response = await get(`${server.url}/api/changes?${query}`, agent, { 'X-Api-Key': revisions.commercialKey });
    assert.equal(response.status, 200, response.body);
    return JSON.parse(response.body) as Feed;
  };

  it('a walk begun under A continues under B within A\'s snapshotMaxId; a new walk sees B\'s event 8', async () => {
    const first = await feed('since=2026-01-01&limit=1');
    assert.equal(first.datasetRevision, revisions.a.revision);
    assert.deepEqual(first.changes.map((change) => change.id), [7]);
    assert.equal(first.snapshotMaxId, 7);

    pointCurrentAt(revisions.out, revisions.b.name);
    server.kill('SIGHUP');
    await server.waitForLog((line) => line.revision === revisions.b.revision && typeof line.previous === 'string');

    const ids: number[] = [];
    let cursor = first.nextCursor;
    while (cursor !== null) {
      const page = await feed(`since=2026-01-01&limit=1&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(page.datasetRevision, revisions.b.revision);
      assert.equal(page.snapshotMaxId, 7, 'the walk keeps the bound its first page froze');
      ids.push(...page.changes.map((change) => change.id));
      cursor = page.nextCursor;
    }
    assert.deepEqual(ids, [5, 4, 1]);

    const fresh = await feed('since=2026-01-01');
    assert.equal(fresh.snapshotMaxId, 8);
    assert.deepEqual(fresh.changes.map((change) => change.id), [8, 7, 5, 4, 1]);
  });
});
