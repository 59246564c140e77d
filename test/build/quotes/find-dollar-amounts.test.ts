import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findDollarAmounts, type StatedAmount } from '../../../build/quotes/find-dollar-amounts.ts';

const rows: Array<{ what: string; text: string; expected: StatedAmount[] }> = [
  { what: 'comma thousands', text: 'Grants up to $12,000 per home.', expected: [{ text: '$12,000', value: 12000 }] },
  { what: 'with cents', text: 'Fee: $1,100.50', expected: [{ text: '$1,100.50', value: 1100.5 }] },
  { what: 'plain digits', text: 'up to $7500', expected: [{ text: '$7500', value: 7500 }] },
  { what: 'a space after the sign, and NBSP', text: '$ 5,000 or $\u00A06,000', expected: [{ text: '$ 5,000', value: 5000 }, { text: '$\u00A06,000', value: 6000 }] },
  { what: 'k and K', text: '$12k, then $15K.', expected: [{ text: '$12k', value: 12000 }, { text: '$15K', value: 15000 }] },
  { what: 'million, attached M', text: 'a $1.5 million fund; $2M total', expected: [{ text: '$1.5 million', value: 1500000 }, { text: '$2M', value: 2000000 }] },
  { what: 'billion', text: 'a $1.2 billion budget', expected: [{ text: '$1.2 billion', value: 1200000000 }] },
  { what: 'US$', text: 'US$ 7,500 and US$8,000', expected: [{ text: 'US$ 7,500', value: 7500 }, { text: 'US$8,000', value: 8000 }] },
  { what: 'a number then dollars', text: 'grants of 12,000 dollars', expected: [{ text: '12,000 dollars', value: 12000 }] },
  { what: 'a number then USD', text: 'up to 1,500 USD', expected: [{ text: '1,500 USD', value: 1500 }] },
  { what: 'sign and word together are one amount', text: '$12,000 dollars', expected: [{ text: '$12,000 dollars', value: 12000 }] },
  { what: 'Spanish with the US comma', text: 'hasta $5,000 por vivienda', expected: [{ text: '$5,000', value: 5000 }] },
  { what: 'Spanish dólares, both separators', text: '5,000 dólares o 7.500 dolares', expected: [{ text: '5,000 dólares', value: 5000 }, { text: '7.500 dolares', value: 7500 }] },
  { what: 'Spanish thousands after the sign', text: 'hasta $12.000,50', expected: [{ text: '$12.000,50', value: 12000.5 }] },
  { what: 'Spanish millones', text: '$2.5 millones', expected: [{ text: '$2.5 millones', value: 2500000 }] },
  { what: 'a range gives both ends', text: '$5,000-$10,000', expected: [{ text: '$5,000', value: 5000 }, { text: '$10,000', value: 10000 }] },
  { what: 'duplicates by value keep the first', text: '$12,000 or $12,000.00 or $12k', expected: [{ text: '$12,000', value: 12000 }] },
  { what: 'page order', text: '$3,000 then $1,000 then $2,000', expected: [{ text: '$3,000', value: 3000 }, { text: '$1,000', value: 1000 }, { text: '$2,000', value: 2000 }] },
  { what: 'a sentence end after the amount', text: 'up to $12,000. Apply', expected: [{ text: '$12,000', value: 12000 }] },
  { what: 'a letter after k is not a multiplier', text: '$5 km', expected: [{ text: '$5', value: 5 }] },
];

const notRecognized: Array<{ what: string; text: string }> = [
  { what: 'a number without a currency', text: 'serves 12,000 homes in 2026' },
  { what: 'a malformed group ($12,0000)', text: 'costs $12,0000' },
  { what: 'Spanish mil (ambiguous: slang for million in English)', text: 'hasta $10 mil' },
  { what: 'zero', text: 'application fee: $0' },
  { what: 'a sign with no number', text: 'save $$$ now' },
  { what: 'a dollar word without a number before it', text: 'dollars for homes' },
  { what: 'a word glued to the number', text: 'A12,000 dollars' },
];

describe('findDollarAmounts', () => {
  for (const row of rows) {
    it(row.what, () => assert.deepEqual(findDollarAmounts(row.text), row.expected));
  }
  for (const row of notRecognized) {
    it(`not recognized: ${row.what}`, () => assert.deepEqual(findDollarAmounts(row.text), []));
  }
});
