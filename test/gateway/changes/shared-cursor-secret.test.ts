/**
 * Change-feed cursors across gateways behind one address (issue 34 item 9), with real `hra serve`
 * processes and a real redis-server on loopback. Two gateways on one Redis with a SQLite key store and no
 * `--cursor-secret` share the secret through Redis, so a cursor from one pages on the other, even for a
 * gateway that started while Redis was down; two gateways with different `--cursor-secret` values answer
 * a cursor from the other with 503 CURSOR_SECRET_MISMATCH, not the client's 400, and log the fix once per
 * minute however many such cursors arrive. A cursor in the format signed before cursors named their
 * secret still pages, and a forged one is still a 400 INVALID_CURSOR.
 */
import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { cursorKey } from '../../../gateway/changes/change-cursor.ts';
import { CURSOR_SECRET_REDIS_KEY } from '../../../gateway/changes/share-cursor-secret-through-redis.ts';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { CURSOR_SECRET_FIX } from '../../../gateway/operations/open-gateway-stores.ts';
import { CURSOR_SECRET_MISMATCH_RETRY_SECONDS } from '../../../gateway/routes/change-routes.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { serve, stopServe, type ServeProcess } from '../../support/serve-process.ts';
import { buildTestSnapshot, MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const SINCE = '2026-01-01';
const LIMIT = 1;

const skip = redisServerSkip();
if (skip) console.log(`# skipping the shared cursor secret tests: ${skip}`);

interface FeedPage {
  changes: Array<{ id: number }>;
  snapshotMaxId: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** Everything a served gateway writes to stderr from now on (the helper keeps only a tail). */
function stderrFrom(gateway: ServeProcess): () => string {
  let text = '';
  gateway.child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

/** Waits until `read()` matches `pattern` (log lines are written in batches, after the `listening` line). */
async function eventually(read: () => string, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!pattern.test(read())) {
    assert.ok(Date.now() < deadline, `no ${pattern} in: ${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A cursor as gateways signed them before cursors named their secret: `<payload>.<mac>`. */
function oldFormatCursor(position: { max: number; before: number; since: string; city: string | null }, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, ...position })).toString('base64url');
  const mac = createHmac('sha256', Buffer.from(secret)).update('hra change-feed cursor\0').update(payload).digest().subarray(0, 16).toString('base64url');
  return `${payload}.${mac}`;
}

describe('change-feed cursors across gateways behind one address', { skip }, () => {
  let dir: string;
  let dataset: string;
  let keysFile: string;
  let key: string;
  let redis: RedisServer | undefined;
  const started: ServeProcess[] = [];

  before(async () => {
    dir = makeTempDir('hra-cursor-secret-');
    keysFile = join(dir, 'keys.sqlite');
    const store = openKeyStore(keysFile, { now: () => new Date(), create: true });
    key = (await store.createKey({ tier: 'commercial' })).key;
    await store.close();
    dataset = buildTestSnapshot(MINI_CORPUS);
    redis = await startRedisServer();
  });
  after(async () => {
    await Promise.all(started.map((gateway) => stopServe(gateway)));
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function gateway(...flags: string[]): Promise<ServeProcess> {
    const served = await serve(['--dataset', dataset, '--keys', keysFile, '--port', '0', '--host', '127.0.0.1', ...flags]);
    started.push(served);
    return served;
  }

  const ask = (on: ServeProcess, cursor: string | null) =>
    fetch(`${on.url}/api/changes?since=${SINCE}&limit=${LIMIT}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { headers: { 'X-Api-Key': key } });

  async function page(on: ServeProcess, cursor: string | null): Promise<FeedPage> {
    const response = await ask(on, cursor);
    const text = await response.text();
    assert.equal(response.status, 200, `${on.url}: ${text}`);
    return JSON.parse(text) as FeedPage;
  }

  /** Every id of a walk that alternates gateways page by page, as a round-robin balancer would. */
  async function walkAcross(gateways: readonly ServeProcess[]): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | null = null;
    let turn = 0;
    do {
      const next: FeedPage = await page(gateways[turn % gateways.length]!, cursor);
      ids.push(...next.changes.map((change) => change.id));
      cursor = next.hasMore ? next.nextCursor : null;
      turn += 1;
    } while (cursor !== null);
    assert.ok(turn > 2, 'the walk spans several pages');
    return ids;
  }

  it('pages a cursor from one gateway on another when both share Redis with a SQLite key store and no --cursor-secret', async () => {
    const [a, b] = [await gateway('--redis', redis!.url), await gateway('--redis', redis!.url)];
    const alone = await walkAcross([a]);
    assert.deepEqual(await walkAcross([a, b]), alone);
    assert.deepEqual(await walkAcross([b, a]), alone);
    await Promise.all([stopServe(a), stopServe(b)]);
  });

  it('adopts the shared secret once Redis answers when it started without it', async () => {
    await redis!.kill();
    const late = await gateway('--redis', redis!.url);
    try {
      await eventually(late.stderr, /cannot share the change-feed cursor secret/);
      await eventually(late.stderr, /"cursorSecretSource":"redis".*this process's own until --redis answers/);
    } finally {
      await redis!.start();
    }
    const early = await gateway('--redis', redis!.url);
    const alone = await walkAcross([early]);
    // The late gateway reconnects within its backoff (at most 1 s) and adopts what the early one stored.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const first = await ask(late, null);
      if (first.status === 200) {
        const cursor = ((await first.json()) as FeedPage).nextCursor!;
        if ((await ask(early, cursor)).status === 200) break;
      } else await first.arrayBuffer();
      assert.ok(Date.now() < deadline, `the late gateway never adopted the shared secret: ${late.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await walkAcross([late, early]), alone);
    assert.deepEqual(await walkAcross([early, late]), alone);
    await Promise.all([stopServe(late), stopServe(early)]);
  });

  it('stores the secret again in a Redis that restarted empty, so a gateway started afterwards shares it', async () => {
    const first = await gateway('--redis', redis!.url);
    const walk = await walkAcross([first]);
    const client = new Redis(redis!.url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 });
    try {
      await client.connect();
      const stored = await client.get(CURSOR_SECRET_REDIS_KEY);
      assert.ok(stored);
      await redis!.kill();
      await redis!.start();
      await client.ping().catch(() => undefined);
      const deadline = Date.now() + 10_000;
      while ((await client.get(CURSOR_SECRET_REDIS_KEY).catch(() => null)) !== stored) {
        assert.ok(Date.now() < deadline, 'the gateway never stored its secret in the restarted Redis');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      client.disconnect();
    }
    const second = await gateway('--redis', redis!.url);
    assert.deepEqual(await walkAcross([first, second]), walk);
    await Promise.all([stopServe(first), stopServe(second)]);
  });

  it('answers a cursor signed under another --cursor-secret with 503 CURSOR_SECRET_MISMATCH and logs the fix once per minute', async () => {
    const [a, b] = [await gateway('--cursor-secret', 'first gateway secret'), await gateway('--cursor-secret', 'second gateway secret')];
    const logOfB = stderrFrom(b);
    const cursor = (await page(a, null)).nextCursor!;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await ask(b, cursor);
      const text = await response.text();
      assert.equal(response.status, 503, text);
      const body = JSON.parse(text) as ApiErrorBody;
      assert.equal(body.code, 'CURSOR_SECRET_MISMATCH');
      assert.match(body.error, /deployment fault, not the client's/);
      assert.match(body.error, new RegExp(cursorKey(Buffer.from('first gateway secret')).id));
      assert.equal(response.headers.get('retry-after'), String(CURSOR_SECRET_MISMATCH_RETRY_SECONDS));
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
    // Retried on the gateway that issued it, the same request pages.
    assert.equal((await page(a, cursor)).snapshotMaxId > 0, true);
    const deadline = Date.now() + 2000;
    while (!logOfB().includes(CURSOR_SECRET_FIX) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = logOfB().split('\n').filter((line) => line.includes(CURSOR_SECRET_FIX));
    assert.equal(lines.length, 1, logOfB());
    const line = JSON.parse(lines[0]!) as { level: number; cursorSecretId: string; heldCursorSecretIds: string[] };
    assert.equal(line.level, 50, 'logged as an error');
    assert.equal(line.cursorSecretId, cursorKey(Buffer.from('first gateway secret')).id);
    assert.deepEqual(line.heldCursorSecretIds, [cursorKey(Buffer.from('second gateway secret')).id]);
    await Promise.all([stopServe(a), stopServe(b)]);
  });

  it('pages a cursor in the format signed before cursors named their secret, and refuses a forged one with 400 INVALID_CURSOR', async () => {
    const secret = 'format compatibility secret';
    const served = await gateway('--cursor-secret', secret);
    const first = await page(served, null);
    const resumed = await page(served, oldFormatCursor({ max: first.snapshotMaxId, before: first.changes[0]!.id, since: SINCE, city: null }, secret));
    assert.deepEqual(resumed, await page(served, first.nextCursor));
    const [id, payload, mac] = first.nextCursor!.split('.');
    const moved = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { before: number };
    moved.before += 1;
    const forged = [
      `${id}.${Buffer.from(JSON.stringify(moved)).toString('base64url')}.${mac}`,
      oldFormatCursor({ max: first.snapshotMaxId, before: first.changes[0]!.id, since: SINCE, city: null }, 'not the secret'),
      'not-a-cursor',
    ];
    for (const cursor of forged) {
      const response = await ask(served, cursor);
      const text = await response.text();
      assert.equal(response.status, 400, `${cursor}: ${text}`);
      assert.equal((JSON.parse(text) as ApiErrorBody).code, 'INVALID_CURSOR');
    }
    await stopServe(served);
  });
});
