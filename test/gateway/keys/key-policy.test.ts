import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { KeyPolicyError } from '../../../gateway/keys/key-errors.ts';
import { checkStoredTrialPolicy, resolveKeyPolicy, type KeyPolicyRequest } from '../../../gateway/keys/key-policy.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const day = 86_400_000;
const at = (days: number) => new Date(now.getTime() + days * day);

describe('resolveKeyPolicy', () => {
  const accepted: ReadonlyArray<[string, KeyPolicyRequest, { cities: readonly string[] | null; expiresAt: Date | null }]> = [
    ['trial, default 30 days', { tier: 'trial', cities: ['detroit'] }, { cities: ['detroit'], expiresAt: at(30) }],
    ['trial, 5 cities, 1 day', { tier: 'trial', cities: ['a', 'b', 'c', 'd', 'e-2'], days: 1 }, { cities: ['a', 'b', 'c', 'd', 'e-2'], expiresAt: at(1) }],
    ['trial, expiry exactly 30 days away', { tier: 'trial', cities: ['a'], expiresAt: at(30) }, { cities: ['a'], expiresAt: at(30) }],
    ['trial, expiry in the past', { tier: 'trial', cities: ['a'], expiresAt: at(-2) }, { cities: ['a'], expiresAt: at(-2) }],
    ['trial, live city', { tier: 'trial', cities: ['a'], liveCitySlugs: new Set(['a', 'b']) }, { cities: ['a'], expiresAt: at(30) }],
    ['nonprofit, no expiry', { tier: 'nonprofit' }, { cities: null, expiresAt: null }],
    ['commercial, 365 days', { tier: 'commercial', days: 365 }, { cities: null, expiresAt: at(365) }],
  ];
  for (const [name, request, expected] of accepted) {
    it(`accepts ${name}`, () => {
      const policy = resolveKeyPolicy(request, now);
      assert.equal(policy.tier, request.tier);
      assert.deepEqual(policy.cities, expected.cities);
      assert.deepEqual(policy.expiresAt, expected.expiresAt);
    });
  }

  const refused: ReadonlyArray<[string, KeyPolicyRequest, RegExp]> = [
    ['an unknown tier', { tier: 'gold' as 'trial' }, /tier must be one of trial, nonprofit, commercial, got "gold"/],
    ['a trial without cities', { tier: 'trial' }, /needs 1 to 5 city slugs, got 0/],
    ['a trial with 6 cities', { tier: 'trial', cities: ['a', 'b', 'c', 'd', 'e', 'f'] }, /needs 1 to 5 city slugs, got 6/],
    ['a trial with a bad slug', { tier: 'trial', cities: ['Detroit'] }, /city slug "Detroit" must match/],
    ['a trial with a trailing dash', { tier: 'trial', cities: ['a-'] }, /city slug "a-" must match/],
    ['a trial with a duplicate city', { tier: 'trial', cities: ['a', 'a'] }, /"a" is listed twice/],
    ['a trial city that is not live', { tier: 'trial', cities: ['x'], liveCitySlugs: new Set(['a']) }, /"x" is not a live city/],
    ['a trial of 31 days', { tier: 'trial', cities: ['a'], days: 31 }, /at most 30 days, got 31 days/],
    ['a trial expiring in 30 days and 1 ms', { tier: 'trial', cities: ['a'], expiresAt: new Date(at(30).getTime() + 1) }, /at most 30 days/],
    ['0 days', { tier: 'nonprofit', days: 0 }, /whole number of days >= 1, got 0/],
    ['fractional days', { tier: 'nonprofit', days: 1.5 }, /got 1.5/],
    ['days and an expiry', { tier: 'nonprofit', days: 3, expiresAt: at(3) }, /not both/],
    ['an invalid expiry', { tier: 'nonprofit', expiresAt: new Date('nope') }, /not a valid date/],
    ['cities on a commercial key', { tier: 'commercial', cities: ['a'] }, /only for trial keys; a commercial key/],
    ['a long label', { tier: 'nonprofit', label: 'x'.repeat(201) }, /at most 200 characters/],
    ['a label with a newline', { tier: 'nonprofit', label: 'a\nb' }, /control characters/],
  ];
  for (const [name, request, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(() => resolveKeyPolicy(request, now), (error: unknown) => {
        assert.ok(error instanceof KeyPolicyError);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

describe('checkStoredTrialPolicy', () => {
  const cases: ReadonlyArray<[string, string | null, Date | null, readonly string[] | undefined]> = [
    ['valid', '["a","b"]', at(30), ['a', 'b']],
    ['already expired (past expiry is not a policy fault)', '["a"]', at(-1), ['a']],
    ['no cities', null, at(1), undefined],
    ['empty cities', '[]', at(1), undefined],
    ['six cities', '["a","b","c","d","e","f"]', at(1), undefined],
    ['unparseable cities', '["a"', at(1), undefined],
    ['cities not an array', '"a"', at(1), undefined],
    ['a non-string city', '["a",1]', at(1), undefined],
    ['a bad slug', '["A"]', at(1), undefined],
    ['duplicate cities', '["a","a"]', at(1), undefined],
    ['no expiry', '["a"]', null, undefined],
    ['a 31-day lifetime', '["a"]', at(31), undefined],
  ];
  for (const [name, cities, expiresAt, expected] of cases) {
    it(`judges ${name}`, () => {
      assert.deepEqual(checkStoredTrialPolicy({ cities, createdAt: now, expiresAt }), expected);
    });
  }
});
