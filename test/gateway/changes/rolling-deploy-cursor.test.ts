/**
 * A change-feed walk across a rolling deploy (issue 21 item 4): two real `hra serve` processes, one on
 * revision A (the mini corpus), one on revision B (the same corpus with 12 more change events), sharing a
 * key store and the cursor secret as gateways behind one balancer do. A cursor from B (bound above A's
 * newest event) is refused by A with 503 CHANGE_FEED_BEHIND_CURSOR and Retry-After, never a page that
 * would skip B's events; retried on B the walk is exact. A cursor from A pages on B exactly.
 */
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { BEHIND_CURSOR_RETRY_SECONDS } from '../../../gateway/routes/change-routes.ts';
import { serve, stopServe, type ServeProcess } from '../../support/serve-process.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const ADDED_EVENTS = 12;
const SINCE = '2026-01-01';
const LIMIT = 3;

interface FeedPage {
  changes: Array<{ id: number }>;
  datasetRevision: string;
  snapshotMaxId: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** The mini corpus with `count` more events after its newest, on programs the feed shows. */
function corpusWithMoreEvents(dir: string, count: number): string {
  const corpus = join(dir, 'corpus-b');
  cpSync(MINI_CORPUS, corpus, { recursive: true });
  const file = join(corpus, 'changes.ndjson');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const newest = Math.max(...lines.map((line) => (JSON.parse(line) as { id: number }).id));
  const added = Array.from({ length: count }, (_, index) => JSON.stringify({
    id: newest + 1 + index,
    detectedAt: `2026-11-${String(10 + Math.floor(index / 3)).padStart(2, '0')}T0${index % 3}:00:00Z`,
    city: 'alpha', programId: 'a-roof', programName: 'Alpha Roof Repair Grant', type: 'status-changed',
    fromStatus: index % 2 === 0 ? 'available' : 'waitlist', toStatus: index % 2 === 0 ? 'waitlist' : 'available',
  }));
  writeFileSync(file, `${[...lines, ...added].join('\n')}\n`);
  return corpus;
}

describe('a change-feed walk across gateways on two revisions', () => {
  let dir: string;
  let key: string;
  let older: ServeProcess;
  let newer: ServeProcess;
  before(async () => {
    dir = makeTempDir('hra-rolling-');
    const keysFile = join(dir, 'keys.sqlite');
    const store = openKeyStore(keysFile, { now: () => new Date(), create: true });
    key = (await store.createKey({ tier: 'commercial' })).key;
    await store.close();
    const common = ['--keys', keysFile, '--cursor-secret', 'rolling-deploy-test-secret', '--port', '0', '--host', '127.0.0.1'];
    // One after the other, so that `after` stops the first if the second fails to start.
    older = await serve(['--dataset', buildTestSnapshot(MINI_CORPUS), ...common]);
    newer = await serve(['--dataset', buildTestSnapshot(corpusWithMoreEvents(dir, ADDED_EVENTS)), ...common]);
  });
  after(async () => {
    await Promise.all([stopServe(older), stopServe(newer)]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ask = (gateway: ServeProcess, cursor: string | null) =>
    fetch(`${gateway.url}/api/changes?since=${SINCE}&limit=${LIMIT}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { headers: { 'X-Api-Key': key } });

  /** Every event id of a walk done on one gateway alone, and the revision it reports. */
  async function walkOn(gateway: ServeProcess): Promise<{ ids: number[]; revision: string; maxId: number }> {
    const ids: number[] = [];
    let cursor: string | null = null;
    let first: FeedPage | undefined;
    do {
      const response = await ask(gateway, cursor);
      assert.equal(response.status, 200, await response.clone().text());
      const page = (await response.json()) as FeedPage;
      first ??= page;
      ids.push(...page.changes.map((change) => change.id));
      cursor = page.hasMore ? page.nextCursor : null;
    } while (cursor !== null);
    return { ids, revision: first.datasetRevision, maxId: first.snapshotMaxId };
  }

  it('refuses a newer revision\'s cursor on the older gateway with 503 and Retry-After, and the walk retried on the newer one misses nothing', async () => {
    const [onOlder, onNewer] = [await walkOn(older), await walkOn(newer)];
    assert.notEqual(onOlder.revision, onNewer.revision);
    assert.equal(onNewer.maxId, onOlder.maxId + ADDED_EVENTS);
    // A client whose balancer alternates hosts: every page is asked of the older gateway first.
    const ids: number[] = [];
    let refusals = 0;
    let response = await ask(newer, null);
    for (;;) {
      assert.equal(response.status, 200, await response.clone().text());
      const page = (await response.json()) as FeedPage;
      assert.equal(page.snapshotMaxId, onNewer.maxId);
      assert.equal(page.datasetRevision, onNewer.revision);
      ids.push(...page.changes.map((change) => change.id));
      if (!page.hasMore || page.nextCursor === null) break;
      // The cursor's bound (B's newest) is above every event A holds, on every page: A must not answer with a page.
      const fromOlder = await ask(older, page.nextCursor);
      const text = await fromOlder.text();
      assert.equal(fromOlder.status, 503, text);
      assert.equal((JSON.parse(text) as ApiErrorBody).code, 'CHANGE_FEED_BEHIND_CURSOR');
      assert.equal(fromOlder.headers.get('retry-after'), String(BEHIND_CURSOR_RETRY_SECONDS));
      assert.equal(fromOlder.headers.get('cache-control'), 'no-store');
      refusals += 1;
      response = await ask(newer, page.nextCursor);
    }
    assert.ok(refusals > 0);
    assert.deepEqual(ids, onNewer.ids, 'the walk across both gateways is the newer revision\'s walk, no event skipped');
  });

  it('pages an older revision\'s cursor on the newer gateway exactly (events are append-only)', async () => {
    const onOlder = await walkOn(older);
    const first = await ask(older, null);
    const page = (await first.json()) as FeedPage;
    assert.ok(page.hasMore && page.nextCursor !== null);
    const ids = page.changes.map((change) => change.id);
    let cursor: string | null = page.nextCursor;
    while (cursor !== null) {
      const response = await ask(newer, cursor);
      assert.equal(response.status, 200, await response.clone().text());
      const next = (await response.json()) as FeedPage;
      assert.equal(next.snapshotMaxId, onOlder.maxId, 'the walk keeps its first page\'s bound');
      ids.push(...next.changes.map((change) => change.id));
      cursor = next.hasMore ? next.nextCursor : null;
    }
    assert.deepEqual(ids, onOlder.ids);
  });
});
