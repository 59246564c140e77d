import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { findQuotedAmount } from '../../../build/derive/find-quoted-amount.ts';

describe('findQuotedAmount', () => {
  const rows: Array<[string, number, string | undefined]> = [
    ['up to $15,000 per household', 15000, '$15,000'],
    ['up to $15000 per household', 15000, '$15000'],
    ['a maximum of $15,000.00', 15000, '$15,000.00'],
    ['grants of $2,500.50', 2500.5, '$2,500.50'],
    ['awards up to 15,000 dollars', 15000, '15,000 dollars'],
    ['awards up to 15000 Dollars', 15000, '15000 Dollars'],
    ['$1,250,000 fund; up to $25,000 each', 25000, '$25,000'],
    ['$5,000 for repairs or $10,000 for roofs', 10000, '$10,000'],
    ['$10,000 max', 10000, '$10,000'],
    ['up to $15,000.', 15000, '$15,000'],
    ['(up to $15,000)', 15000, '$15,000'],
    ['US$15,000 grants', 15000, '$15,000'],
    ['up to $2.5 million', 2500000, undefined],
    ['up to $2 million', 2, undefined],
    ['up to $15k', 15, undefined],
    ['up to $15 thousand', 15, undefined],
    ['up to $15.5', 15, undefined],
    ['up to $1,50,000', 150000, undefined],
    ['up to $150,000', 15000, undefined],
    ['up to $ 15,000', 15000, undefined],
    ['fifteen thousand dollars', 15000, undefined],
    ['up to 15,000 euros', 15000, undefined],
    ['up to $15,000', 15000.001, undefined],
    ['up to $15,000', -15000, undefined],
    ['up to $15,000', Number.NaN, undefined],
  ];
  for (const [quote, amount, expected] of rows) {
    it(`${JSON.stringify(quote)} vs ${amount} -> ${expected ?? 'no match'}`, () => {
      assert.equal(findQuotedAmount(quote, amount)?.text, expected);
    });
  }

  it('reports where the figure starts', () => {
    assert.deepEqual(findQuotedAmount('Roofs: $9,000', 9000), { text: '$9,000', index: 7 });
  });
});
