import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeChangeCursor, encodeChangeCursor, type ChangeCursor } from '../../../gateway/changes/change-cursor.ts';

const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const other = Buffer.from('fedcba9876543210fedcba9876543210');
const base: ChangeCursor = { snapshotMaxId: 70, beforeId: 42, since: '2026-10-01', city: 'beta' };

const cursorArbitrary = fc
  .record({
    snapshotMaxId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    since: fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
    city: fc.option(fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/), { nil: null }),
  })
  .map(({ snapshotMaxId, fraction, since, city }): ChangeCursor => ({ snapshotMaxId, beforeId: Math.max(1, Math.ceil(snapshotMaxId * fraction)), since, city }));

describe('encodeChangeCursor / decodeChangeCursor', () => {
  it('round-trips every position', () => {
    fc.assert(fc.property(cursorArbitrary, (cursor) => {
      assert.deepEqual(decodeChangeCursor(encodeChangeCursor(cursor, secret), secret), cursor);
    }), { numRuns: 300 });
  });

  it('round-trips a null city and is URL-safe', () => {
    const text = encodeChangeCursor({ ...base, city: null }, secret);
    assert.match(text, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(decodeChangeCursor(text, secret), { ...base, city: null });
  });

  it('refuses a cursor signed under another secret', () => {
    assert.equal(decodeChangeCursor(encodeChangeCursor(base, other), secret), undefined);
  });

  it('refuses every single-character change', () => {
    const text = encodeChangeCursor(base, secret);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let index = 0; index < text.length; index += 1) {
      if (text[index] === '.') continue;
      for (const replacement of alphabet) {
        if (replacement === text[index]) continue;
        const tampered = text.slice(0, index) + replacement + text.slice(index + 1);
        assert.equal(decodeChangeCursor(tampered, secret), undefined, `accepted ${tampered}`);
      }
    }
  });

  it('refuses a payload swapped in from another cursor', () => {
    const [payload] = encodeChangeCursor({ ...base, beforeId: 3 }, secret).split('.');
    const [, mac] = encodeChangeCursor(base, secret).split('.');
    assert.equal(decodeChangeCursor(`${payload}.${mac}`, secret), undefined);
  });

  const malformed: Array<{ name: string; text: string }> = [
    { name: 'empty', text: '' },
    { name: 'no separator', text: 'abcdef' },
    { name: 'two separators', text: `${encodeChangeCursor(base, secret)}.x` },
    { name: 'padding', text: `${encodeChangeCursor(base, secret)}=` },
    { name: 'standard base64 characters', text: encodeChangeCursor(base, secret).replace(/^./, '+') },
    { name: 'short mac', text: encodeChangeCursor(base, secret).slice(0, -1) },
    { name: 'whitespace', text: ` ${encodeChangeCursor(base, secret)}` },
    { name: 'the literal null', text: 'null' },
  ];
  for (const { name, text } of malformed) {
    it(`refuses a malformed cursor: ${name}`, () => assert.equal(decodeChangeCursor(text, secret), undefined));
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
    it(`refuses a signed but impossible position: ${name}`, () => assert.equal(decodeChangeCursor(encodeChangeCursor(cursor, secret), secret), undefined));
  }
});
