import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
import { RateLimitStorageError, type RateLimiter } from '../../../gateway/limits/rate-limiter.ts';
import { fakeClock, rateLimiterContract } from './rate-limiter-contract.ts';

describe('MemoryRateLimiter', () => {
  rateLimiterContract((limits, now) => new MemoryRateLimiter({ limits, now }));

  it('reports its scheme', () => {
    assert.equal(new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: Date.now }).scheme, 'memory');
  });

  it('sweeps out counters of ended windows, keeping memory bounded', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    const limiter = new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: clock.now });
    for (let i = 0; i < 1000; i++) await limiter.consumePublic(`198.51.100.${i}`);
    for (let i = 0; i < 10; i++) await limiter.consumeKey(`key-${i}`, 'trial');
    assert.equal(limiter.size, 1000 + 10 * 2);
    clock.set('2030-01-15T12:01:30Z');
    await limiter.consumePublic('203.0.113.1');
    // Ended minute windows are gone; the keys' day windows live on, plus the new request's minute.
    assert.equal(limiter.size, 10 + 1);
    clock.set('2030-01-16T00:02:00Z');
    await limiter.consumePublic('203.0.113.1');
    assert.equal(limiter.size, 1);
  });
});

describe('MemoryRateLimiter.consumeKeyNow and consumePublicNow', () => {
  // The whole contract again with every request counted through the synchronous methods: the same decisions.
  rateLimiterContract((limits, now): RateLimiter => {
    const limiter = new MemoryRateLimiter({ limits, now });
    return {
      scheme: limiter.scheme,
      consumeKey: async (keyId, tier) => limiter.consumeKeyNow(keyId, tier),
      consumePublic: async (address) => limiter.consumePublicNow(address),
      close: () => limiter.close(),
    };
  });

  it('counts into the same windows as consumeKey, and throws where consumeKey rejects', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    const limiter = new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: clock.now });
    const first = limiter.consumeKeyNow('key-1', 'trial');
    const second = await limiter.consumeKey('key-1', 'trial');
    const third = limiter.consumeKeyNow('key-1', 'trial');
    assert.deepEqual([first.remaining, second.remaining, third.remaining], [59, 58, 57]);
    await limiter.close();
    assert.throws(() => limiter.consumeKeyNow('key-1', 'trial'), RateLimitStorageError);
  });

  it('counts an address into the same window as consumePublic, and throws where consumePublic rejects', async () => {
    const clock = fakeClock('2030-01-15T12:00:00Z');
    const limiter = new MemoryRateLimiter({ limits: DEFAULT_LIMITS, now: clock.now });
    const first = limiter.consumePublicNow('198.51.100.7');
    const second = await limiter.consumePublic('198.51.100.7');
    const third = limiter.consumePublicNow('198.51.100.7');
    assert.deepEqual([second.remaining, third.remaining], [first.remaining - 1, first.remaining - 2]);
    await limiter.close();
    assert.throws(() => limiter.consumePublicNow('198.51.100.7'), RateLimitStorageError);
  });
});
