import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimitHeaders } from '../../../gateway/access/rate-limit-headers.ts';
import { limitPolicy } from '../../../gateway/limits/limit-windows.ts';
import type { LimitDecision } from '../../../gateway/limits/rate-limiter.ts';

const POLICY = limitPolicy({ perMinute: 60, perDay: 2_000 });
const MINUTE_END = 1_795_686_300;

function decision(overrides: Partial<LimitDecision>): LimitDecision {
  return { allowed: true, window: 'minute', limit: 60, remaining: 59, resetAt: MINUTE_END, policy: POLICY, ...overrides };
}

/** The five fields as the spec and the IETF draft spell them, computed here from the decision alone. */
function expected(d: LimitDecision, nowMs: number): [string, string][] {
  return [
    ['X-RateLimit-Limit', `${d.limit}`],
    ['X-RateLimit-Remaining', `${d.remaining}`],
    ['X-RateLimit-Reset', `${d.resetAt}`],
    ['RateLimit-Policy', '"minute";q=60;w=60, "day";q=2000;w=86400'],
    ['RateLimit', `"${d.window}";r=${d.remaining};t=${Math.max(0, d.resetAt - Math.floor(nowMs / 1000))}`],
  ];
}

describe('rateLimitHeaders', () => {
  it('writes the reported window\'s limit, remaining and reset, the policy, and the RateLimit field', () => {
    const nowMs = (MINUTE_END - 43) * 1000 + 250;
    assert.deepEqual(rateLimitHeaders(decision({}), nowMs), [
      ['X-RateLimit-Limit', '60'],
      ['X-RateLimit-Remaining', '59'],
      ['X-RateLimit-Reset', '1795686300'],
      ['RateLimit-Policy', '"minute";q=60;w=60, "day";q=2000;w=86400'],
      ['RateLimit', '"minute";r=59;t=43'],
    ]);
  });

  it('follows every change of the reported window, its quota and its end under one policy, in any order', () => {
    // The texts of the last reported window are remembered per policy: each of these must be written anew.
    const nowMs = (MINUTE_END - 10) * 1000;
    const sequence = [
      decision({}),
      decision({ remaining: 58 }),
      decision({ window: 'day', limit: 2_000, remaining: 0, resetAt: 1_795_737_600, allowed: false, retryAfter: 51_310 }),
      decision({ remaining: 57 }),
      decision({ resetAt: MINUTE_END + 60, remaining: 59 }),
      decision({ limit: 120, resetAt: MINUTE_END + 60, remaining: 100 }),
      decision({ window: 'day', limit: 120, resetAt: MINUTE_END + 60, remaining: 100 }),
      decision({}),
    ];
    for (const [index, d] of sequence.entries()) assert.deepEqual(rateLimitHeaders(d, nowMs), expected(d, nowMs), `decision ${index}`);
  });

  it('never writes a negative time to reset', () => {
    const late = (MINUTE_END + 5) * 1000;
    assert.deepEqual(rateLimitHeaders(decision({}), late).at(-1), ['RateLimit', '"minute";r=59;t=0']);
  });
});
