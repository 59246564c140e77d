import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../../gateway/limits/limit-table.ts';
import { MemoryRateLimiter } from '../../../gateway/limits/memory-rate-limiter.ts';
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
