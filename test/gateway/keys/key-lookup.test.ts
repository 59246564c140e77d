import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { classifyKeyRow, type KeyRowForVerdict, type KeyRowVerdict } from '../../../gateway/keys/key-lookup.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const iso = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
const base: KeyRowForVerdict = {
  id: 'key_000000000001',
  tier: 'trial',
  cities: '["detroit"]',
  created_at: iso(-1),
  expires_at: iso(10),
  revoked_at: null,
};

describe('classifyKeyRow', () => {
  const cases: ReadonlyArray<[string, Partial<KeyRowForVerdict>, KeyRowVerdict['kind']]> = [
    ['an active trial', {}, 'valid'],
    ['an active nonprofit key without expiry', { tier: 'nonprofit', cities: null, expires_at: null }, 'valid'],
    ['an active commercial key', { tier: 'enterprise', cities: null }, 'valid'],
    ['a revoked key', { revoked_at: iso(-0.5) }, 'revoked'],
    ['a revoked key whose row is also broken', { revoked_at: iso(-0.5), tier: 'gold' }, 'revoked'],
    ['a key expiring exactly now', { expires_at: now.toISOString() }, 'expired'],
    ['an expired key', { expires_at: iso(-0.001) }, 'expired'],
    ['a trial without cities', { cities: null }, 'trial-policy-invalid'],
    ['a trial with six cities', { cities: '["a","b","c","d","e","f"]' }, 'trial-policy-invalid'],
    ['a trial without expiry', { expires_at: null }, 'trial-policy-invalid'],
    ['a trial living 31 days', { created_at: iso(-1), expires_at: iso(30) }, 'trial-policy-invalid'],
    ['an unknown stored tier', { tier: 'gold' }, 'corrupt'],
    ['the public name stored instead of enterprise', { tier: 'commercial', cities: null }, 'corrupt'],
    ['a paid key with a city list', { tier: 'nonprofit' }, 'corrupt'],
    ['an unreadable expiry', { expires_at: 'soon' }, 'corrupt'],
    ['an unreadable creation time', { created_at: 'then' }, 'corrupt'],
  ];
  for (const [name, change, kind] of cases) {
    it(`judges ${name} as ${kind}`, () => {
      assert.equal(classifyKeyRow({ ...base, ...change }, now).kind, kind);
    });
  }

  it('mints a frozen LicensedKey with the public tier name', () => {
    const verdict = classifyKeyRow({ ...base, tier: 'enterprise', cities: null }, now);
    assert.deepEqual(verdict, {
      kind: 'valid',
      key: { id: base.id, tier: 'commercial', cities: null, expiresAt: base.expires_at },
    });
    assert.ok(verdict.kind === 'valid' && Object.isFrozen(verdict.key));
  });

  it('carries the trial cities', () => {
    const verdict = classifyKeyRow({ ...base, cities: '["a","b-c"]' }, now);
    assert.ok(verdict.kind === 'valid');
    assert.deepEqual(verdict.key.cities, ['a', 'b-c']);
  });
});
