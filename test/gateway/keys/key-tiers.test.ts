import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fromStoredTier, isKeyTier, toStoredTier, type KeyTier, type StoredKeyTier } from '../../../gateway/keys/key-tiers.ts';

const pairs: ReadonlyArray<[KeyTier, StoredKeyTier]> = [
  ['trial', 'trial'],
  ['nonprofit', 'nonprofit'],
  ['commercial', 'enterprise'],
];

describe('toStoredTier / fromStoredTier', () => {
  for (const [tier, stored] of pairs) {
    it(`stores ${tier} as ${stored} and reads it back`, () => {
      assert.equal(toStoredTier(tier), stored);
      assert.equal(fromStoredTier(stored), tier);
    });
  }

  for (const stored of ['commercial', 'Trial', '', 'gold']) {
    it(`reads no tier from stored ${JSON.stringify(stored)}`, () => {
      assert.equal(fromStoredTier(stored), undefined);
    });
  }
});

describe('isKeyTier', () => {
  const cases: ReadonlyArray<[string, boolean]> = [
    ['trial', true],
    ['nonprofit', true],
    ['commercial', true],
    ['enterprise', false],
    ['TRIAL', false],
  ];
  for (const [value, expected] of cases) {
    it(`says ${expected} for ${value}`, () => assert.equal(isKeyTier(value), expected));
  }
});
