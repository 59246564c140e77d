import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS, parseLimitsFile } from '../../../gateway/limits/limit-table.ts';

describe('DEFAULT_LIMITS', () => {
  it('holds the spec 5.5 tier limits and the chosen public limit', () => {
    assert.deepEqual(DEFAULT_LIMITS, {
      tiers: {
        trial: { perMinute: 60, perDay: 2000 },
        nonprofit: { perMinute: 120, perDay: 20_000 },
        commercial: { perMinute: 600, perDay: 200_000 },
      },
      public: { perMinute: 120, perDay: null },
    });
  });

  it('is frozen all the way down', () => {
    assert.ok(Object.isFrozen(DEFAULT_LIMITS) && Object.isFrozen(DEFAULT_LIMITS.tiers));
    assert.ok(Object.isFrozen(DEFAULT_LIMITS.tiers.trial) && Object.isFrozen(DEFAULT_LIMITS.public));
  });
});

describe('parseLimitsFile', () => {
  it('overrides only the fields a partial file names', () => {
    const table = parseLimitsFile({ tiers: { trial: { perMinute: 1000 } }, public: { perMinute: 100_000 } }, 'limits.json');
    assert.deepEqual(table.tiers.trial, { perMinute: 1000, perDay: 2000 });
    assert.deepEqual(table.tiers.nonprofit, DEFAULT_LIMITS.tiers.nonprofit);
    assert.deepEqual(table.public, { perMinute: 100_000, perDay: null });
    assert.ok(Object.isFrozen(table) && Object.isFrozen(table.tiers.trial) && Object.isFrozen(table.tiers.commercial));
  });

  it('keeps the defaults for an empty file and lets null remove a day window', () => {
    assert.deepEqual(parseLimitsFile({}, 'limits.json'), DEFAULT_LIMITS);
    const table = parseLimitsFile({ tiers: { commercial: { perDay: null } }, public: { perDay: 5000 } }, 'limits.json');
    assert.deepEqual(table.tiers.commercial, { perMinute: 600, perDay: null });
    assert.deepEqual(table.public, { perMinute: 120, perDay: 5000 });
  });

  it('lays the file over a given base', () => {
    const base = parseLimitsFile({ tiers: { trial: { perDay: 10 } } }, 'base.json');
    assert.deepEqual(parseLimitsFile({ tiers: { trial: { perMinute: 5 } } }, 'more.json', base).tiers.trial, { perMinute: 5, perDay: 10 });
  });

  const bad: readonly [string, unknown, string][] = [
    ['not an object', [], 'limits.json $: must be an object, got []'],
    ['null', null, 'limits.json $: must be an object, got null'],
    ['an unknown top-level field', { tier: {} }, 'limits.json $.tier: unknown field; expected one of tiers, public'],
    ['tiers not an object', { tiers: 5 }, 'limits.json $.tiers: must be an object, got 5'],
    ['an unknown tier', { tiers: { enterprise: {} } }, 'limits.json $.tiers.enterprise: unknown field; expected one of trial, nonprofit, commercial'],
    ['an unknown rule field', { public: { perHour: 5 } }, 'limits.json $.public.perHour: unknown field; expected one of perMinute, perDay'],
    ['a string quota', { tiers: { trial: { perMinute: '60' } } }, 'limits.json $.tiers.trial.perMinute: must be a positive integer, got "60"'],
    ['a zero quota', { tiers: { nonprofit: { perDay: 0 } } }, 'limits.json $.tiers.nonprofit.perDay: must be a positive integer, got 0'],
    ['a fractional quota', { public: { perMinute: 1.5 } }, 'limits.json $.public.perMinute: must be a positive integer, got 1.5'],
    ['a null per-minute quota', { public: { perMinute: null } }, 'limits.json $.public.perMinute: must be a positive integer, got null'],
    ['a negative quota', { tiers: { commercial: { perMinute: -1 } } }, 'limits.json $.tiers.commercial.perMinute: must be a positive integer, got -1'],
  ];
  for (const [what, json, message] of bad) {
    it(`rejects ${what} with one line naming the file and field`, () => {
      assert.throws(() => parseLimitsFile(json, 'limits.json'), { message });
    });
  }
});
