import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideLimit, hasRoom } from '../../../gateway/limits/decide-limit.ts';
import { limitPolicy, windowSlots } from '../../../gateway/limits/limit-windows.ts';

const policy = limitPolicy({ perMinute: 10, perDay: 100 });
const nowMs = Date.parse('2030-01-15T18:00:15.500Z');
const slots = windowSlots(policy, nowMs);
const MINUTE_END = Date.parse('2030-01-15T18:01:00Z') / 1000;
const DAY_END = Date.parse('2030-01-16T00:00:00Z') / 1000;

describe('windowSlots', () => {
  it('aligns minutes to the clock and days to UTC midnight', () => {
    assert.deepEqual(
      slots.map((s) => [s.name, new Date(s.startMs).toISOString(), new Date(s.endMs).toISOString()]),
      [
        ['minute', '2030-01-15T18:00:00.000Z', '2030-01-15T18:01:00.000Z'],
        ['day', '2030-01-15T00:00:00.000Z', '2030-01-16T00:00:00.000Z'],
      ],
    );
  });
});

describe('hasRoom', () => {
  it('needs room in every window', () => {
    assert.equal(hasRoom(slots, [9, 99]), true);
    assert.equal(hasRoom(slots, [10, 5]), false);
    assert.equal(hasRoom(slots, [0, 100]), false);
  });
});

describe('decideLimit', () => {
  const cases: readonly { used: [number, number]; allowed: boolean; window: 'minute' | 'day'; limit: number; remaining: number; resetAt: number; retryAfter?: number }[] = [
    { used: [1, 1], allowed: true, window: 'minute', limit: 10, remaining: 9, resetAt: MINUTE_END },
    { used: [3, 95], allowed: true, window: 'day', limit: 100, remaining: 5, resetAt: DAY_END },
    { used: [5, 95], allowed: true, window: 'minute', limit: 10, remaining: 5, resetAt: MINUTE_END }, // tie: sooner reset
    { used: [10, 50], allowed: false, window: 'minute', limit: 10, remaining: 0, resetAt: MINUTE_END, retryAfter: 45 },
    { used: [2, 100], allowed: false, window: 'day', limit: 100, remaining: 0, resetAt: DAY_END, retryAfter: 21_585 },
    { used: [10, 100], allowed: false, window: 'day', limit: 100, remaining: 0, resetAt: DAY_END, retryAfter: 21_585 }, // both spent: the later
    { used: [25, 30], allowed: false, window: 'minute', limit: 10, remaining: 0, resetAt: MINUTE_END, retryAfter: 45 }, // quota shrank mid-window
  ];
  for (const { used, ...expected } of cases) {
    it(`reports ${JSON.stringify(expected)} for counts ${used.join('/')}`, () => {
      assert.deepEqual(decideLimit(policy, slots, used, expected.allowed, nowMs), { ...expected, policy });
    });
  }

  it('never states a retry earlier than one second', () => {
    const late = Date.parse('2030-01-15T18:00:59.999Z');
    const d = decideLimit(policy, windowSlots(policy, late), [10, 10], false, late);
    assert.equal(d.retryAfter, 1);
  });

  it('names the reported window even when both windows have the same quota', () => {
    const even = limitPolicy({ perMinute: 4, perDay: 4 });
    const evenSlots = windowSlots(even, nowMs);
    assert.equal(decideLimit(even, evenSlots, [2, 2], true, nowMs).window, 'minute');
    assert.equal(decideLimit(even, evenSlots, [4, 4], true, nowMs).window, 'day');
  });
});
