/** canonicalJson is canonicalize's RFC 8785 encoding, on every kind of value, so no revision moves with it. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import canonicalizeModule from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson } from '../../../build/revision/canonical-digest.ts';

const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (value: unknown) => string | undefined;

/** What canonicalize makes of a value: its text, or the error it throws (canonicalJson's for no text). */
function library(value: unknown): { text: string } | { error: string } {
  try {
    const text = canonicalize(value);
    return text === undefined ? { error: 'TypeError: value has no canonical JSON form' } : { text };
  } catch (error) {
    return { error: String(error) };
  }
}

function ours(value: unknown): { text: string } | { error: string } {
  try {
    return { text: canonicalJson(value) };
  } catch (error) {
    return { error: String(error) };
  }
}

describe('canonicalJson', () => {
  it('gives canonicalize\'s text for parsed JSON of any shape, full Unicode strings included', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }), (value) => {
      assert.deepEqual(ours(value), library(value));
      assert.deepEqual(ours(JSON.parse(JSON.stringify(value))), library(JSON.parse(JSON.stringify(value))));
    }), { numRuns: 500 });
  });

  it('gives canonicalize\'s text or error for values JSON cannot hold: holes, undefined, -0, NaN, symbols, functions, toJSON, bigints, boxed values', () => {
    fc.assert(fc.property(fc.anything({ maxDepth: 4, withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withNullPrototype: true, withObjectString: true, withSet: true, withSparseArray: true, withTypedArray: true, withUnicodeString: true }), (value) => {
      assert.deepEqual(ours(value), library(value));
    }), { numRuns: 500 });
  });

  it('gives canonicalize\'s text for the cases written out', () => {
    const cases: unknown[] = [
      { b: 1, a: [1, undefined, Symbol('s'), null], c: undefined, d: Symbol('s') },
      // eslint-disable-next-line no-sparse-arrays
      [1, , 2],
      { toJSON: 5, z: 'toJSON is only a key here' },
      { when: new Date(0) },
      { f: () => 1 },
      { '\u00e9': 1, e: 2, '\ud83d\ude00': 3, '\uff61': 4, '': 5 },
      { 10: 'a', 9: 'b', '1a': 'c', a: { 2: 'd', 1: 'e' } },
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
      -0,
      1e21,
      5e-324,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      undefined,
      10n,
      'lone \ud800 surrogate',
    ];
    for (const value of cases) assert.deepEqual(ours(value), library(value), String(typeof value));
  });
});
