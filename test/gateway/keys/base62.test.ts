import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { base62Alphabet, encodeBase62Fixed, randomBase62 } from '../../../gateway/keys/base62.ts';

describe('randomBase62', () => {
  it('draws only base62 symbols, of the requested length', () => {
    for (const length of [0, 1, 12, 32, 100]) {
      const text = randomBase62(length);
      assert.equal(text.length, length);
      assert.match(text, /^[0-9A-Za-z]*$/);
    }
  });

  it('skips biased bytes >= 248', () => {
    const bytes = [255, 248, 0, 61, 62, 247];
    const text = randomBase62(4, (size) => Buffer.from(bytes.splice(0, size)));
    assert.equal(text, `0z0${base62Alphabet[247 % 62]}`);
  });
});

describe('encodeBase62Fixed', () => {
  const fixed: ReadonlyArray<[bigint, number, string]> = [
    [0n, 3, '000'],
    [61n, 2, '0z'],
    [62n, 2, '10'],
    [62n ** 6n + 5n, 6, '000005'],
  ];
  for (const [value, length, expected] of fixed) {
    it(`encodes ${value} in ${length} symbols as ${expected}`, () => {
      assert.equal(encodeBase62Fixed(value, length), expected);
    });
  }
});
