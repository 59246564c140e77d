/**
 * Two real `hra serve` processes over one key store and one Redis enforce one combined limit per key:
 * requests alternating between them count against the same windows, and the (N+1)th across both is a
 * 429 on whichever process receives it.
 */
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { serve, stopServe, type ServeProcess } from '../../support/serve-process.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { assertLimitHeaders, assertRateLimited } from './limits-http-support.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

// These processes run on the wall clock, so the quota sits in the day window, whose boundary (UTC
// midnight) a test is very unlikely to straddle; the minute window is far out of reach.
const DAY_QUOTA = 9;
const LIMITS = { tiers: { nonprofit: { perMinute: 10_000, perDay: DAY_QUOTA } } };

describe('two gateway processes sharing one Redis', { skip: redisServerSkip() }, () => {
  let redis: RedisServer;
  let dir: string;
  let key: string;
  const gateways: ServeProcess[] = [];
  before(async () => {
    redis = await startRedisServer();
    dir = makeTempDir('hra-shared-');
    const keysFile = join(dir, 'keys.sqlite');
    const store = openKeyStore(keysFile, { now: () => new Date() });
    key = (await store.createKey({ tier: 'nonprofit' })).key;
    await store.close();
    const limitsFile = join(dir, 'limits.json');
    writeFileSync(limitsFile, JSON.stringify(LIMITS));
    const args = ['--dataset', buildTestSnapshot(), '--keys', keysFile, '--port', '0', '--host', '127.0.0.1', '--redis', redis.url, '--limits', limitsFile];
    gateways.push(...(await Promise.all([serve(args), serve(args)])));
  });
  after(async () => {
    await Promise.all(gateways.map(stopServe));
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`alternating requests count against one day window of ${DAY_QUOTA}; request ${DAY_QUOTA + 1} is a 429 on both`, async () => {
    // Stepping over a UTC midnight mid-test would reset the window; start clear of it (a bounded wait).
    const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
    if (toMidnight < 5_000) await new Promise((resolve) => setTimeout(resolve, toMidnight + 100));
    const get = (i: number) => fetch(`${gateways[i % 2]!.url}/api/cities`, { headers: { 'X-Api-Key': key } });
    for (let used = 1; used <= DAY_QUOTA; used++) {
      const sent = Date.now();
      const response = await get(used);
      assert.equal(response.status, 200, `request ${used} on gateway ${used % 2}`);
      await response.arrayBuffer();
      const headers = assertLimitHeaders(response, [sent, Date.now()], `request ${used}`);
      assert.deepEqual([headers.window, headers.limit, headers.remaining], ['day', DAY_QUOTA, DAY_QUOTA - used], `request ${used}`);
    }
    for (const i of [0, 1]) {
      const sent = Date.now();
      const response = await get(i);
      assertLimitHeaders(response, [sent, Date.now()], `gateway ${i} over quota`);
      await assertRateLimited(response, `gateway ${i} over quota`);
    }
  });
});
