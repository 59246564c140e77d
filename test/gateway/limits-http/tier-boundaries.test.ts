/**
 * Per-key limits over real HTTP, at their exact boundaries (spec 5.5, 8), with the embedded memory
 * windows and with `--redis` against a real redis-server: the quota-th request of a minute passes, the
 * next is a 429 until the minute ends; day limits likewise. The clock is stepped, never slept on.
 */
import * as assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { redisServerSkip, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { assertLimitHeaders, assertRateLimited, steppedClock, type SteppedClock } from './limits-http-support.ts';

const TIERS = [
  { kind: 'trial', perMinute: 60, perDay: 2_000 },
  { kind: 'nonprofit', perMinute: 120, perDay: 20_000 },
  { kind: 'commercial', perMinute: 600, perDay: 200_000 },
] as const;

// Day windows small enough to exhaust in a few stepped minutes; nonprofit's two windows have one quota.
const SMALL_DAY = { tiers: { trial: { perMinute: 3, perDay: 5 }, nonprofit: { perMinute: 4, perDay: 4 } } };

interface Storage {
  name: string;
  skip: string | false;
  /** Gateway flags for this storage, once any server it needs is up. */
  flags(): Record<string, unknown>;
  setUp(): Promise<void>;
  reset(): Promise<void>;
  tearDown(): Promise<void>;
}

let redis: RedisServer | undefined;
let admin: Redis | undefined;

const storages: Storage[] = [
  { name: 'memory (default)', skip: false, flags: () => ({}), setUp: async () => {}, reset: async () => {}, tearDown: async () => {} },
  {
    name: 'redis (--redis)',
    skip: redisServerSkip(),
    flags: () => ({ redis: redis!.url }),
    setUp: async () => {
      redis = await startRedisServer();
      admin = new Redis(redis.url);
    },
    // Every gateway of this file meters the same loopback address and fresh keys; start each test clean anyway.
    reset: async () => void (await admin?.flushall()),
    tearDown: async () => {
      admin?.disconnect();
      await redis?.stop();
    },
  },
];

for (const storage of storages) {
  describe(`tier limits over HTTP with ${storage.name}`, { skip: storage.skip }, () => {
    let clock: SteppedClock;
    let gateway: TestGateway;
    let smallDay: TestGateway;
    before(async () => {
      await storage.setUp();
      clock = steppedClock();
      gateway = await startTestGateway({ flags: storage.flags(), now: clock.now });
      smallDay = await startTestGateway({ flags: storage.flags(), now: clock.now, limits: SMALL_DAY });
    });
    after(async () => {
      await gateway?.close();
      await smallDay?.close();
      await storage.tearDown();
    });
    beforeEach(async () => {
      await storage.reset();
      clock.nextMinute(30_500);
    });

    for (const tier of TIERS) {
      it(`${tier.kind}: request ${tier.perMinute} of a minute passes, ${tier.perMinute + 1} is a 429 until the next minute`, async () => {
        const key = gateway.keys[tier.kind];
        for (let used = 1; used <= tier.perMinute; used++) {
          const response = await gateway.get('/api/cities', { key });
          assert.equal(response.status, 200, `request ${used}`);
          await response.arrayBuffer();
          const headers = assertLimitHeaders(response, clock.now(), `request ${used}`);
          assert.deepEqual(headers, { limit: tier.perMinute, remaining: tier.perMinute - used, reset: headers.reset, window: 'minute' }, `request ${used}`);
          assert.equal(response.headers.get('RateLimit-Policy'), `"minute";q=${tier.perMinute};w=60, "day";q=${tier.perDay};w=86400`);
        }
        const minuteEnd = Math.ceil(clock.now() / 60_000) * 60;
        for (const attempt of [1, 2]) {
          const rejected = await gateway.get('/api/cities', { key });
          const headers = assertLimitHeaders(rejected, clock.now(), `over quota ${attempt}`);
          assert.deepEqual([headers.limit, headers.remaining, headers.reset], [tier.perMinute, 0, minuteEnd]);
          // 30.5 s into the minute: 29.5 s left, stated as 30 whole seconds, never earlier than the end.
          assert.equal(await assertRateLimited(rejected, `over quota ${attempt}`), 30);
        }
        clock.nextMinute(0);
        const next = await gateway.get('/api/cities', { key });
        assert.equal(next.status, 200);
        const headers = assertLimitHeaders(next, clock.now(), 'next minute');
        // Rejected requests consumed nothing: the day window counted exactly the quota plus this one.
        assert.deepEqual([headers.limit, headers.remaining, headers.reset], [tier.perMinute, tier.perMinute - 1, minuteEnd + 60]);
      });
    }

    it('day limit: a spent day blocks every later minute until UTC midnight, then passes', async () => {
      const key = smallDay.keys.trial;
      const get = async (where: string) => {
        const response = await smallDay.get('/api/programs/alpha', { key });
        return { response, headers: assertLimitHeaders(response, clock.now(), where) };
      };
      // Minute 1: the minute window (3) is closest to exhaustion.
      for (let used = 1; used <= 3; used++) {
        const { response, headers } = await get(`minute 1 request ${used}`);
        assert.equal(response.status, 200);
        assert.deepEqual([headers.window, headers.limit, headers.remaining], ['minute', 3, 3 - used]);
      }
      const { response: minuteSpent, headers: minuteHeaders } = await get('minute 1 over');
      assert.deepEqual([minuteHeaders.window, minuteHeaders.remaining], ['minute', 0]);
      assert.equal(await assertRateLimited(minuteSpent), 30);
      // Minute 2: the day window (5, 3 used) is now closer; it reaches 0 on request 5 of the day.
      clock.nextMinute(10_000);
      for (const remaining of [1, 0]) {
        const { response, headers } = await get(`minute 2, day remaining ${remaining}`);
        assert.equal(response.status, 200);
        assert.deepEqual([headers.window, headers.limit, headers.remaining], ['day', 5, remaining]);
      }
      const dayEnd = Math.ceil(clock.now() / 86_400_000) * 86_400;
      for (const step of ['same minute', 'next minute', 'last second of the day']) {
        if (step === 'next minute') clock.nextMinute(0);
        if (step === 'last second of the day') clock.nextDay(-999);
        const { response, headers } = await get(step);
        assert.deepEqual([headers.window, headers.limit, headers.remaining, headers.reset], ['day', 5, 0, dayEnd], step);
        const retryAfter = await assertRateLimited(response, step);
        assert.equal(retryAfter, Math.ceil((dayEnd * 1000 - clock.now()) / 1000), step);
      }
      clock.nextDay(0);
      const { response, headers } = await get('next day');
      assert.equal(response.status, 200);
      assert.deepEqual([headers.window, headers.remaining], ['minute', 2]);
    });

    it('equal minute and day quotas: the spent day is the window every header names', async () => {
      const key = smallDay.keys.nonprofit;
      for (let used = 1; used <= 5; used++) {
        const response = await smallDay.get('/api/cities', { key });
        await response.arrayBuffer();
        const headers = assertLimitHeaders(response, clock.now(), `request ${used}`);
        // While both have room the minute (sooner reset) is reported; at zero the day, which blocks longer.
        assert.deepEqual([response.status, headers.window, headers.remaining], used <= 3 ? [200, 'minute', 4 - used] : used === 4 ? [200, 'day', 0] : [429, 'day', 0]);
      }
    });
  });
}
