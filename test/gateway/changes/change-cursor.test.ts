import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cursorKey, decodeChangeCursor, encodeChangeCursor, type ChangeCursor, type DecodedCursor } from '../../../gateway/changes/change-cursor.ts';

const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const key = cursorKey(secret);
const other = cursorKey(Buffer.from('fedcba9876543210fedcba9876543210'));
const base: ChangeCursor = { snapshotMaxId: 70, beforeId: 42, since: '2026-10-01', city: 'beta' };
// `base` and its null-city twin as the gateway signed them under `secret` before cursors named their secret.
const OLD_FORMAT = 'eyJ2IjoxLCJtYXgiOjcwLCJiZWZvcmUiOjQyLCJzaW5jZSI6IjIwMjYtMTAtMDEiLCJjaXR5IjoiYmV0YSJ9.Tmgd5eFSuK2We0l-lIgtsw';
const OLD_FORMAT_NULL_CITY = 'eyJ2IjoxLCJtYXgiOjcwLCJiZWZvcmUiOjQyLCJzaW5jZSI6IjIwMjYtMTAtMDEiLCJjaXR5IjpudWxsfQ.qlL0IGdUAxk_Us36_9pRFw';

const INVALID: DecodedCursor = { kind: 'invalid' };
const at = (cursor: ChangeCursor): DecodedCursor => ({ kind: 'position', cursor });

const cursorArbitrary = fc
  .record({
    snapshotMaxId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    since: fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
    city: fc.option(fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/), { nil: null }),
  })
  .map(({ snapshotMaxId, fraction, since, city }): ChangeCursor => ({ snapshotMaxId, beforeId: Math.max(1, Math.ceil(snapshotMaxId * fraction)), since, city }));

describe('cursorKey', () => {
  it('names a secret by 8 base64url characters that depend on the secret alone', () => {
    assert.match(key.id, /^[A-Za-z0-9_-]{8}$/);
    assert.equal(cursorKey(Buffer.from(secret)).id, key.id);
    assert.notEqual(other.id, key.id);
    assert.ok(!key.id.includes(secret.toString('base64url').slice(0, 8)));
  });
});

describe('encodeChangeCursor / decodeChangeCursor', () => {
  it('round-trips every position', () => {
    fc.assert(fc.property(cursorArbitrary, (cursor) => {
      assert.deepEqual(decodeChangeCursor(encodeChangeCursor(cursor, key), [key]), at(cursor));
    }), { numRuns: 300 });
  });

  it('round-trips a null city, is URL-safe and starts with the signing secret\'s identifier', () => {
    const text = encodeChangeCursor({ ...base, city: null }, key);
    assert.match(text, /^[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.ok(text.startsWith(`${key.id}.`));
    assert.deepEqual(decodeChangeCursor(text, [key]), at({ ...base, city: null }));
  });

  it('accepts a cursor under any held secret, in any order', () => {
    assert.deepEqual(decodeChangeCursor(encodeChangeCursor(base, other), [key, other]), at(base));
    assert.deepEqual(decodeChangeCursor(encodeChangeCursor(base, key), [other, key]), at(base));
  });

  it('names the secret of a cursor signed under one it does not hold', () => {
    assert.deepEqual(decodeChangeCursor(encodeChangeCursor(base, other), [key]), { kind: 'unknown-secret', secretId: other.id });
  });

  it('accepts cursors in the format signed before cursors named their secret', () => {
    assert.deepEqual(decodeChangeCursor(OLD_FORMAT, [other, key]), at(base));
    assert.deepEqual(decodeChangeCursor(OLD_FORMAT_NULL_CITY, [key]), at({ ...base, city: null }));
  });

  it('refuses an old-format cursor under no held secret as invalid: it names none', () => {
    assert.deepEqual(decodeChangeCursor(OLD_FORMAT, [other]), INVALID);
  });

  it('refuses every single-character change of the payload or the MAC, and never reads a changed identifier as a position', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const text of [encodeChangeCursor(base, key), OLD_FORMAT]) {
      const idLength = text === OLD_FORMAT ? 0 : key.id.length;
      for (let index = 0; index < text.length; index += 1) {
        if (text[index] === '.') continue;
        for (const replacement of alphabet) {
          if (replacement === text[index]) continue;
          const tampered = text.slice(0, index) + replacement + text.slice(index + 1);
          const decoded = decodeChangeCursor(tampered, [key]);
          // A changed identifier names a secret nobody holds: the payload cannot be checked, only not trusted.
          if (index < idLength) assert.notEqual(decoded.kind, 'position', `accepted ${tampered}`);
          else assert.deepEqual(decoded, INVALID, `accepted ${tampered}`);
        }
      }
    }
  });

  it('refuses a payload swapped in from another cursor', () => {
    const [id, payload] = encodeChangeCursor({ ...base, beforeId: 3 }, key).split('.');
    const [, , mac] = encodeChangeCursor(base, key).split('.');
    assert.deepEqual(decodeChangeCursor(`${id}.${payload}.${mac}`, [key]), INVALID);
  });

  it('blames a foreign secret only for a payload a gateway could have written', () => {
    const garbage = `${other.id}.${Buffer.from('{"v":1,"max":"x"}').toString('base64url')}.${'A'.repeat(22)}`;
    assert.deepEqual(decodeChangeCursor(garbage, [key]), INVALID);
    assert.deepEqual(decodeChangeCursor(`${other.id}.bm90IGpzb24.${'A'.repeat(22)}`, [key]), INVALID);
  });

  const malformed: Array<{ name: string; text: string }> = [
    { name: 'empty', text: '' },
    { name: 'no separator', text: 'abcdef' },
    { name: 'three separators', text: `${encodeChangeCursor(base, key)}.x` },
    { name: 'padding', text: `${encodeChangeCursor(base, key)}=` },
    { name: 'standard base64 characters', text: encodeChangeCursor(base, key).replace(/^./, '+') },
    { name: 'short mac', text: encodeChangeCursor(base, key).slice(0, -1) },
    { name: 'short identifier', text: encodeChangeCursor(base, key).slice(1) },
    { name: 'whitespace', text: ` ${encodeChangeCursor(base, key)}` },
    { name: 'the literal null', text: 'null' },
  ];
  for (const { name, text } of malformed) {
    it(`refuses a malformed cursor: ${name}`, () => assert.deepEqual(decodeChangeCursor(text, [key]), INVALID));
  }

  // Correctly signed, yet no position a page could have produced.
  const impossible: Array<{ name: string; cursor: ChangeCursor }> = [
    { name: 'beforeId 0', cursor: { ...base, beforeId: 0 } },
    { name: 'beforeId above the bound', cursor: { ...base, beforeId: 71 } },
    { name: 'fractional id', cursor: { ...base, beforeId: 4.5 } },
    { name: 'unsafe integer', cursor: { ...base, snapshotMaxId: 2 ** 60 } },
    { name: 'since not a date', cursor: { ...base, since: 'yesterday' } },
  ];
  for (const { name, cursor } of impossible) {
    it(`refuses a signed but impossible position: ${name}`, () => assert.deepEqual(decodeChangeCursor(encodeChangeCursor(cursor, key), [key]), INVALID));
  }
});
