/** The cursor secret shared through a real redis-server on loopback: offered, adopted, stored again, bounded. */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { cursorKey } from '../../../gateway/changes/change-cursor.ts';
import { CursorKeyring } from '../../../gateway/changes/cursor-keyring.ts';
import { CURSOR_SECRET_REDIS_KEY, shareCursorSecretThroughRedis } from '../../../gateway/changes/share-cursor-secret-through-redis.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';

const skip = redisServerSkip();

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('shareCursorSecretThroughRedis', { skip }, () => {
  let redis: RedisServer;
  let client: Redis;
  before(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url, { maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 });
  });
  after(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('stores its own secret in an empty Redis, and a second keyring adopts it while keeping its own accepted', async () => {
    await client.del(CURSOR_SECRET_REDIS_KEY);
    const first = new CursorKeyring(Buffer.from('first-keyring-own-secret'));
    const second = new CursorKeyring(Buffer.from('second-keyring-own-secret'));
    // One after the other, so the first is the one whose secret Redis keeps.
    const shares = [shareCursorSecretThroughRedis({ url: redis.url, keyring: first })];
    try {
      await shares[0]!.firstExchange;
      shares.push(shareCursorSecretThroughRedis({ url: redis.url, keyring: second }));
      await shares[1]!.firstExchange;
      assert.equal(await client.get(CURSOR_SECRET_REDIS_KEY), 'first-keyring-own-secret');
      assert.equal(shares[1]!.shared, true);
      assert.equal(second.signing.id, first.signing.id);
      assert.deepEqual(second.held.map((key) => key.id), [first.signing.id, cursorKey(Buffer.from('second-keyring-own-secret')).id]);
    } finally {
      await Promise.all(shares.map((share) => share.close()));
    }
  });

  it('stores the shared secret again when Redis loses the key (an eviction, a FLUSHALL)', async () => {
    await client.set(CURSOR_SECRET_REDIS_KEY, 'secret-already-shared');
    const keyring = new CursorKeyring(Buffer.from('own-secret-never-shared'));
    const share = shareCursorSecretThroughRedis({ url: redis.url, keyring, recheckMs: 50 });
    try {
      await share.firstExchange;
      assert.equal(keyring.signing.id, cursorKey(Buffer.from('secret-already-shared')).id);
      await client.del(CURSOR_SECRET_REDIS_KEY);
      await until(async () => (await client.get(CURSOR_SECRET_REDIS_KEY)) === 'secret-already-shared', 'the key was never stored again');
    } finally {
      await share.close();
    }
  });

  it('settles its first exchange within about a second when Redis does not answer, signing under its own secret, and closes at once', async () => {
    const keyring = new CursorKeyring(Buffer.from('own-secret-while-redis-stalls'));
    const errors: string[] = [];
    redis.pause();
    try {
      const started = performance.now();
      const share = shareCursorSecretThroughRedis({ url: redis.url, keyring, onError: (error) => errors.push(error.message) });
      await share.firstExchange;
      const settledMs = performance.now() - started;
      assert.ok(settledMs < 1500, `settled after ${Math.round(settledMs)} ms`);
      assert.equal(share.shared, false);
      assert.equal(keyring.signing.id, cursorKey(Buffer.from('own-secret-while-redis-stalls')).id);
      assert.equal(errors.length, 1, errors.join('; '));
      const closing = performance.now();
      await share.close();
      assert.ok(performance.now() - closing < 100);
    } finally {
      redis.resume();
    }
  });
});
