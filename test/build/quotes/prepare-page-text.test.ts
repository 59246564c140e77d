import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dropZeroCents } from '../../../build/quotes/drop-zero-cents.ts';
import { normalizeForMatch } from '../../../build/quotes/normalize-for-match.ts';
import { LINE_BREAK, preparePageText } from '../../../build/quotes/prepare-page-text.ts';

/** The marked breaks of a prepared page, as [index, kind] pairs. */
function marks(breaks: Uint8Array | undefined): Array<[number, number]> {
  return breaks === undefined ? [] : [...breaks.entries()].filter(([, kind]) => kind !== 0);
}

describe('preparePageText', () => {
  it('gives the whole text normalized, zero cents dropped, in every format (any strings)', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\n', '\f', '-', 'a', '1', '.', '0', ' ', '\u00AD', '\u0301', '\u2010'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 });
    fc.assert(
      fc.property(text, (page) => {
        for (const format of ['html', 'pdf', 'text'] as const) {
          const prepared = preparePageText(page, format);
          assert.equal(prepared.text, dropZeroCents(normalizeForMatch(page)));
          for (const [at] of marks(prepared.breaks)) assert.equal(prepared.text[at], ' ');
        }
      }),
      { numRuns: 3000 },
    );
  });

  const rows: Array<{ page: string; expected: Array<[number, number]> }> = [
    { page: 'com-\npile', expected: [[4, LINE_BREAK.hyphenWord]] },
    { page: 'in\ncluding', expected: [[2, LINE_BREAK.word]] },
    { page: '2026-\n2027', expected: [[5, LINE_BREAK.hyphenNumber]] },
    { page: 'COVID-\n19', expected: [[6, LINE_BREAK.hyphenNumber]] },
    { page: '$2,\n000', expected: [] },
    { page: 'up to $25\n000', expected: [] },
    { page: 'pre -\nexisting', expected: [] },
    { page: 'com-\n\f\npile', expected: [] },
    { page: 'com-\n \npile', expected: [] },
  ];
  for (const row of rows) {
    it(`marks ${JSON.stringify(row.page)} as pdf text`, () => assert.deepEqual(marks(preparePageText(row.page, 'pdf').breaks), row.expected));
  }

  it('marks no break in html or plain text', () => {
    for (const format of ['html', 'text'] as const) assert.equal(preparePageText('com-\npile in\ncluding', format).breaks, undefined);
  });
});
