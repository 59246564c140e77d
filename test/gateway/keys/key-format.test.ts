import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { base62Alphabet } from '../../../gateway/keys/base62.ts';
import {
  computeKeyChecksum,
  digestKey,
  generateKey,
  generateKeyId,
  isKeyIdShape,
  parseKeyShape,
} from '../../../gateway/keys/key-format.ts';
import { keyTiers } from '../../../gateway/keys/key-tiers.ts';

describe('generateKey / parseKeyShape', () => {
  for (const tier of keyTiers) {
    it(`round-trips a ${tier} key`, () => {
      const key = generateKey(tier);
      assert.match(key, new RegExp(`^hra_${tier[0]}_[0-9A-Za-z]{38}$`));
      assert.deepEqual(parseKeyShape(key), { kind: 'well-formed', key, tierHint: tier });
      assert.match(digestKey(key), /^[0-9a-f]{64}$/);
    });
  }

  it('issues distinct keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey('trial')));
    assert.equal(keys.size, 200);
  });

  const valid = generateKey('nonprofit');
  const body = valid.slice(0, -6);
  const malformed: ReadonlyArray<[string, string, 'shape' | 'checksum']> = [
    ['empty', '', 'shape'],
    ['truncated', valid.slice(0, -1), 'shape'],
    ['extended', `${valid}a`, 'shape'],
    ['unknown tier letter', `hra_x_${valid.slice(6)}`, 'shape'],
    ['wrong prefix', `hrb_${valid.slice(4)}`, 'shape'],
    ['surrounding space', ` ${valid}`, 'shape'],
    ['lowercase prefix changed case', valid.toUpperCase(), 'shape'],
    ['wrong checksum', `${body}${computeKeyChecksum(body) === '000000' ? '000001' : '000000'}`, 'checksum'],
    ['tier letter swapped, old checksum', `hra_c_${valid.slice(6)}`, 'checksum'],
  ];
  for (const [name, raw, reason] of malformed) {
    it(`rejects ${name} (${reason})`, () => {
      assert.deepEqual(parseKeyShape(raw), { kind: 'malformed', reason });
    });
  }

  it('rejects every single-character substitution of a valid key by shape or checksum', () => {
    const symbols = `${base62Alphabet}_- .`;
    for (const tier of keyTiers) {
      const key = generateKey(tier);
      let mutations = 0;
      for (let index = 0; index < key.length; index += 1) {
        for (const symbol of symbols) {
          if (symbol === key[index]) continue;
          const mutated = key.slice(0, index) + symbol + key.slice(index + 1);
          mutations += 1;
          assert.equal(parseKeyShape(mutated).kind, 'malformed', `accepted ${mutated}`);
        }
      }
      assert.ok(mutations > 44 * 60);
    }
  });

  it('rejects every adjacent transposition and every deletion', () => {
    const key = generateKey('trial');
    for (let index = 0; index < key.length; index += 1) {
      const deleted = key.slice(0, index) + key.slice(index + 1);
      assert.equal(parseKeyShape(deleted).kind, 'malformed');
      const next = key[index + 1];
      if (next === undefined || next === key[index]) continue;
      const swapped = key.slice(0, index) + next + key[index] + key.slice(index + 2);
      assert.equal(parseKeyShape(swapped).kind, 'malformed', `accepted ${swapped}`);
    }
  });
});

describe('generateKeyId / isKeyIdShape', () => {
  it('issues ids of the documented shape', () => {
    const id = generateKeyId();
    assert.match(id, /^key_[0-9A-Za-z]{12}$/);
    assert.equal(isKeyIdShape(id), true);
  });

  for (const raw of ['', 'key_', 'key_short', 'key_0123456789abc', 'kex_0123456789ab', generateKey('trial')]) {
    it(`refuses ${JSON.stringify(raw)} as an id`, () => {
      assert.equal(isKeyIdShape(raw), false);
    });
  }
});
