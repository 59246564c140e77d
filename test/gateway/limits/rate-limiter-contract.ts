import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { DEFAULT_LIMITS, parseLimitsFile, type LimitTable, type LimitTier } from '../../../gateway/limits/limit-table.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from '../../../gateway/limits/rate-limiter.ts';

/** Builds the limiter under test from limits and a clock. */
export type MakeLimiter = (limits: LimitTable, now: () => number) => RateLimiter;

/** A settable clock in epoch milliseconds. */
export interface FakeClock {
  readonly now: () => number;
  set(iso: string): void;
}

/** A clock that only moves when told. */
export function fakeClock(iso: string): FakeClock {
  let t = Date.parse(iso);
  return { now: () => t, set: (next) => (t = Date.parse(next)) };
}

type Subject = LimitTier | 'public';

/** Consumes once as `subject` under a fresh name per test, so tests sharing one Redis never collide. */
export function consumer(limiter: RateLimiter, subject: Subject, id: string): () => Promise<LimitDecision> {
  return subject === 'public' ? () => limiter.consumePublic(id) : () => limiter.consumeKey(id, subject);
}

/** Checks what every decision must satisfy for the headers to be valid (spec 4.1). */
export function assertHeaderInvariants(d: LimitDecision, nowMs: number): void {
  assert.ok(Number.isInteger(d.limit) && d.limit >= 0, `limit ${d.limit}`);
  assert.ok(Number.isInteger(d.remaining) && d.remaining >= 0 && d.remaining <= d.limit, `remaining ${d.remaining}`);
  assert.ok(Number.isInteger(d.resetAt) && d.resetAt * 1000 > nowMs, `resetAt ${d.resetAt}`);
  assert.ok(d.policy.some((w) => w.quota === d.limit), 'limit is one of the policy quotas');
  if (d.allowed) assert.equal(d.retryAfter, undefined);
  else {
    assert.ok(Number.isInteger(d.retryAfter) && d.retryAfter! >= 1, `retryAfter ${d.retryAfter}`);
    assert.ok(nowMs + d.retryAfter! * 1000 >= d.resetAt * 1000, 'retryAfter not before the window ends');
    assert.equal(d.remaining, 0);
  }
}

const epochSeconds = (iso: string): number => Date.parse(iso) / 1000;

const MINUTE_CASES: readonly { subject: Subject; quota: number }[] = [
  { subject: 'trial', quota: 60 },
  { subject: 'nonprofit', quota: 120 },
  { subject: 'commercial', quota: 600 },
  { subject: 'public', quota: 120 },
];

const DAY_CASES: readonly { subject: Subject; limits: LimitTable; perMinute: number; perDay: number }[] = [
  { subject: 'trial', limits: DEFAULT_LIMITS, perMinute: 60, perDay: 2000 },
  { subject: 'nonprofit', limits: parseLimitsFile({ tiers: { nonprofit: { perDay: 250 } } }, 'case'), perMinute: 120, perDay: 250 },
  { subject: 'commercial', limits: parseLimitsFile({ tiers: { commercial: { perDay: 250 } } }, 'case'), perMinute: 600, perDay: 250 },
  { subject: 'public', limits: parseLimitsFile({ public: { perMinute: 3, perDay: 7 } }, 'case'), perMinute: 3, perDay: 7 },
];

/** Registers the behaviour every `RateLimiter` shares, run against both storages. */
export function rateLimiterContract(make: MakeLimiter): void {
  const withLimiter = async (limits: LimitTable, clock: FakeClock, run: (l: RateLimiter) => Promise<void>) => {
    const limiter = make(limits, clock.now);
    try {
      await run(limiter);
    } finally {
      await limiter.close();
    }
  };

  for (const { subject, quota } of MINUTE_CASES) {
    it(`${subject}: request ${quota} in a minute passes, ${quota + 1} waits for the next minute`, async () => {
      const clock = fakeClock('2030-01-15T10:00:30.400Z');
      await withLimiter(DEFAULT_LIMITS, clock, async (limiter) => {
        const consume = consumer(limiter, subject, randomUUID());
        for (let used = 1; used <= quota; used++) {
          const d = await consume();
          assertHeaderInvariants(d, clock.now());
          assert.deepEqual([d.allowed, d.limit, d.remaining], [true, quota, quota - used], `request ${used}`);
          assert.equal(d.resetAt, epochSeconds('2030-01-15T10:01:00Z'));
        }
        const rejected = await consume();
        assertHeaderInvariants(rejected, clock.now());
        assert.deepEqual([rejected.allowed, rejected.limit, rejected.remaining, rejected.retryAfter], [false, quota, 0, 30]);
        clock.set('2030-01-15T10:00:59.999Z');
        assert.equal((await consume()).retryAfter, 1);
        clock.set('2030-01-15T10:01:00.000Z');
        const next = await consume();
        assert.deepEqual([next.allowed, next.limit, next.remaining], [true, quota, quota - 1]);
        assert.equal(next.resetAt, epochSeconds('2030-01-15T10:02:00Z'));
      });
    });
  }

  for (const { subject, limits, perMinute, perDay } of DAY_CASES) {
    it(`${subject}: request ${perDay} in a UTC day passes, ${perDay + 1} waits for midnight`, async () => {
      const clock = fakeClock('2030-01-15T23:20:00Z');
      await withLimiter(limits, clock, async (limiter) => {
        const consume = consumer(limiter, subject, randomUUID());
        let minute = 0;
        let minuteUsed = 0;
        for (let used = 1; used <= perDay; used++) {
          if (minuteUsed === perMinute) {
            clock.set(new Date(Date.parse('2030-01-15T23:20:00Z') + ++minute * 60_000).toISOString());
            minuteUsed = 0;
          }
          minuteUsed++;
          const d = await consume();
          assertHeaderInvariants(d, clock.now());
          const [minuteLeft, dayLeft] = [perMinute - minuteUsed, perDay - used];
          // The window closest to exhaustion; on a tie the sooner reset, unless both are spent.
          const dayReported = dayLeft < minuteLeft || (dayLeft === 0 && minuteLeft === 0);
          assert.deepEqual([d.allowed, d.remaining], [true, Math.min(minuteLeft, dayLeft)], `request ${used}`);
          assert.equal(d.limit, dayReported ? perDay : perMinute);
        }
        const rejected = await consume();
        assertHeaderInvariants(rejected, clock.now());
        assert.deepEqual([rejected.allowed, rejected.limit, rejected.remaining], [false, perDay, 0]);
        assert.equal(rejected.resetAt, epochSeconds('2030-01-16T00:00:00Z'));
        assert.equal(rejected.retryAfter, Math.ceil((Date.parse('2030-01-16T00:00:00Z') - clock.now()) / 1000));
        clock.set('2030-01-15T23:59:59.001Z');
        assert.deepEqual([(await consume()).allowed, (await consume()).retryAfter], [false, 1]);
        clock.set('2030-01-16T00:00:00Z');
        const next = await consume();
        assert.deepEqual([next.allowed, next.remaining], [true, Math.min(perMinute, perDay) - 1]);
      });
    });
  }

  it('does not count rejected requests against the day', async () => {
    const clock = fakeClock('2030-01-15T12:00:10Z');
    await withLimiter(parseLimitsFile({ tiers: { trial: { perMinute: 3, perDay: 5 } } }, 'case'), clock, async (limiter) => {
      const consume = consumer(limiter, 'trial', randomUUID());
      for (let i = 0; i < 3; i++) assert.equal((await consume()).allowed, true);
      for (let i = 0; i < 10; i++) assert.equal((await consume()).allowed, false);
      clock.set('2030-01-15T12:01:00Z');
      assert.deepEqual([(await consume()).remaining, (await consume()).remaining], [1, 0]);
      const blocked = await consume();
      assert.deepEqual([blocked.allowed, blocked.limit, blocked.retryAfter], [false, 5, 12 * 3600 - 60]);
    });
  });

  it('reports the sooner window on a tie and the blocking window when both are spent', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    await withLimiter(parseLimitsFile({ tiers: { trial: { perMinute: 2, perDay: 2 } } }, 'case'), clock, async (limiter) => {
      const consume = consumer(limiter, 'trial', randomUUID());
      const first = await consume();
      assert.deepEqual([first.remaining, first.resetAt], [1, epochSeconds('2030-01-15T12:01:00Z')]);
      const last = await consume();
      assert.deepEqual([last.remaining, last.resetAt], [0, epochSeconds('2030-01-16T00:00:00Z')]);
    });
  });

  it('applies the tier given at each call, keeping the counts', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    await withLimiter(DEFAULT_LIMITS, clock, async (limiter) => {
      const id = randomUUID();
      for (let i = 0; i < 60; i++) await limiter.consumeKey(id, 'trial');
      assert.equal((await limiter.consumeKey(id, 'trial')).allowed, false);
      const upgraded = await limiter.consumeKey(id, 'nonprofit');
      assert.deepEqual([upgraded.allowed, upgraded.limit, upgraded.remaining], [true, 120, 59]);
      assert.equal((await limiter.consumeKey(id, 'trial')).allowed, false);
    });
  });

  it('follows a tier change between one window and two, both ways: a spent day refuses only the tier that has one', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    const limits = parseLimitsFile({ tiers: { nonprofit: { perMinute: 5, perDay: null }, trial: { perMinute: 5, perDay: 1 } } }, 'case');
    await withLimiter(limits, clock, async (limiter) => {
      const id = randomUUID();
      const seen: [number, number, number, boolean][] = [];
      for (const tier of ['trial', 'trial', 'nonprofit', 'trial', 'nonprofit'] as const) {
        const decision = await limiter.consumeKey(id, tier);
        seen.push([decision.policy.length, decision.limit, decision.remaining, decision.allowed]);
      }
      // Trial's day is spent by its first call; nonprofit has no day window, so the spent day never refuses it.
      assert.deepEqual(seen, [[2, 1, 0, true], [2, 1, 0, false], [1, 5, 3, true], [2, 1, 0, false], [1, 5, 2, true]]);
    });
  });

  it('keeps keys and client addresses apart', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    await withLimiter(parseLimitsFile({ tiers: { trial: { perMinute: 1 } }, public: { perMinute: 1 } }, 'case'), clock, async (limiter) => {
      const id = randomUUID();
      assert.equal((await limiter.consumeKey(id, 'trial')).allowed, true);
      assert.equal((await limiter.consumeKey(id, 'trial')).allowed, false);
      assert.equal((await limiter.consumeKey(randomUUID(), 'trial')).allowed, true);
      assert.equal((await limiter.consumePublic(id)).allowed, true);
    });
  });

  it('publishes the policy of every window the request counted against', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    await withLimiter(DEFAULT_LIMITS, clock, async (limiter) => {
      const { policy } = await limiter.consumeKey(randomUUID(), 'trial');
      const rendered = policy.map((w) => `"${w.name}";q=${w.quota};w=${w.seconds}`).join(', ');
      assert.equal(rendered, '"minute";q=60;w=60, "day";q=2000;w=86400');
      assert.deepEqual((await limiter.consumePublic('192.0.2.1')).policy, [{ name: 'minute', quota: 120, seconds: 60 }]);
    });
  });

  it('fails with RateLimitStorageError once closed', async () => {
    const limiter = make(DEFAULT_LIMITS, () => Date.parse('2030-01-15T12:00:00Z'));
    await limiter.close();
    await assert.rejects(limiter.consumeKey(randomUUID(), 'trial'), RateLimitStorageError);
  });
}
