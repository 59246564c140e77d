import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { rewriteAmountFigures } from '../../../build/synth/rewrite-amount-figures.ts';

describe('rewriteAmountFigures', () => {
  const rows: Array<[string, number, number, string]> = [
    ['Up to $15,000 per home', 15000, 18000, 'Up to $18,000 per home'],
    ['Up to $15000 per home', 15000, 18000, 'Up to $18000 per home'],
    ['grants of $5,000.00', 5000, 12500, 'grants of $12,500.00'],
    ['15,000 dollars at most', 15000, 9000, '9,000 dollars at most'],
    ['$15,000 now, $15,000 later', 15000, 20000, '$20,000 now, $20,000 later'],
    ['other figures stay: $1,500 and $15,000', 15000, 20000, 'other figures stay: $1,500 and $20,000'],
    ['a prefix is not a match: $15,0000', 15000, 20000, 'a prefix is not a match: $15,0000'],
    ['magnitudes are not read: $15k', 15000, 20000, 'magnitudes are not read: $15k'],
    ['Hasta $15,000 por vivienda', 15000, 1500000, 'Hasta $1,500,000 por vivienda'],
  ];
  for (const [text, from, to, expected] of rows) {
    it(`${JSON.stringify(text)}: ${from} -> ${to}`, () => assert.equal(rewriteAmountFigures(text, from, to), expected));
  }
});
