/** Where a quote stops matching the page, shown as a maintainer reads it. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateQuoteBreak, QUOTE_BREAK_CONTEXT_CHARS } from '../../../build/quotes/locate-quote-break.ts';

describe('locateQuoteBreak', () => {
  // [case, normalized quote, normalized page, the break]
  const cases: ReadonlyArray<[string, string, string, ReturnType<typeof locateQuoteBreak>]> = [
    ['a changed amount: the break is inside the number', 'up to $10,000 for repairs', 'grants of up to $12,500 for repairs.', {
      matchedChars: 8, quoteChars: 25, pageBefore: 'grants of up to $1', pageAfter: '2,500 for repairs.', quoteAfter: '0,000 for repairs',
    }],
    ['the whole quote is there but its number goes on', 'up to $2', 'loans up to $200,000.', {
      matchedChars: 8, quoteChars: 8, pageBefore: 'loans up to $2', pageAfter: '00,000.', quoteAfter: '',
    }],
    ['not even the first character: the break is at the page start', 'zzz', 'abc', {
      matchedChars: 0, quoteChars: 3, pageBefore: '', pageAfter: 'abc', quoteAfter: 'zzz',
    }],
    ['the first occurrence of the longest start is shown', 'roof $5', 'roof $4 then roof $3', {
      matchedChars: 6, quoteChars: 7, pageBefore: 'roof $', pageAfter: '4 then roof $3', quoteAfter: '5',
    }],
    ['a longer start later in the page wins over a shorter one earlier', 'up to $10,000', 'up to $5 or up to $10,500', {
      matchedChars: 10, quoteChars: 13, pageBefore: 'up to $5 or up to $10,', pageAfter: '500', quoteAfter: '000',
    }],
    ['lengths are code points and no surrogate pair is split', '\u{1F3E0} \u{20BB7}\u{20BB7}x', 'a \u{1F3E0} \u{20BB7}\u{20BB7}y', {
      matchedChars: 4, quoteChars: 5, pageBefore: 'a \u{1F3E0} \u{20BB7}\u{20BB7}', pageAfter: 'y', quoteAfter: 'x',
    }],
  ];
  for (const [name, quote, page, expected] of cases) {
    it(name, () => {
      assert.deepEqual(locateQuoteBreak(quote, page), expected);
    });
  }

  it('shows at most QUOTE_BREAK_CONTEXT_CHARS code points on each side, cut on code point boundaries', () => {
    const wide = '\u{1F3E0}'.repeat(100);
    const quote = `${wide}$10,000 ${'b'.repeat(100)}`;
    const page = `${'\u{20BB7}'.repeat(100)}${wide}$12,500 ${'c'.repeat(100)}`;
    const found = locateQuoteBreak(quote, page);
    assert.equal(found.matchedChars, 102);
    assert.equal(found.pageBefore, `${'\u{1F3E0}'.repeat(QUOTE_BREAK_CONTEXT_CHARS - 2)}$1`);
    assert.equal(found.pageAfter, `2,500 ${'c'.repeat(QUOTE_BREAK_CONTEXT_CHARS - 6)}`);
    assert.equal(found.quoteAfter, `0,000 ${'b'.repeat(QUOTE_BREAK_CONTEXT_CHARS - 6)}`);
  });

  it('finds the break of a 200-character quote on a 5 MiB page', () => {
    const quote = `eligible homeowners may receive up to $10,000 for home repairs ${'and more words '.repeat(9)}`.slice(0, 200);
    const page = `${'filler text about roofs and porches. '.repeat(150_000)}eligible homeowners may receive up to $10,500 for home repairs.`;
    assert.ok(page.length > 5 * 1024 * 1024);
    const found = locateQuoteBreak(quote, page);
    assert.equal(found.matchedChars, 'eligible homeowners may receive up to $10,'.length);
    assert.equal(found.pageAfter, '500 for home repairs.');
  });
});
