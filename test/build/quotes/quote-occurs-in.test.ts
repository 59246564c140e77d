import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizeForMatch } from '../../../build/quotes/normalize-for-match.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';

// Words of a quote: letters (some accented), apostrophes and hyphens inside words, and one dollar amount.
const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Z\u00E9\u00F1]{1,9}$/),
  fc.stringMatching(/^[a-z]{1,5}'[a-z]{1,3}$/),
  fc.stringMatching(/^[a-z]{1,5}-[a-z]{1,5}$/),
);
const amount = fc.integer({ min: 1, max: 999_999 }).map((dollars) => `$${dollars.toLocaleString('en-US')}`);
const quoteWords = fc.tuple(fc.array(word, { minLength: 1, maxLength: 6 }), amount, fc.array(word, { maxLength: 6 })).map(([before, dollars, after]) => [...before, dollars, ...after]);
// Filler around the quote in a page: words and white space, never a digit or a dollar sign, so it cannot
// hold the quote's amount by chance.
const filler = fc.array(fc.oneof(word, fc.constantFrom(' ', '\n', '. ', ', ')), { maxLength: 12 }).map((parts) => parts.join(' '));

// How a page may write what a person reads as the same quote.
const gap = fc.constantFrom(' ', '  ', '\u00A0', '\n', '\r\n', '\t', ' \n  ', '\u2003', '\u202F', ' \u200B');
const apostrophe = fc.constantFrom("'", '\u2019', '\u2018', '\u2032');
const hyphen = fc.constantFrom('-', '\u2010', '\u2011', '\u2013', '\u2014', '\u2212');
const invisible = fc.constantFrom('', '', '\u00AD', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF');
const caseChange = fc.constantFrom('keep', 'upper', 'lower');

/** Writes `words` as a page might: each gap, apostrophe, hyphen and letter case chosen by the generator. */
function pageVariant(words: string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(gap, { minLength: words.length, maxLength: words.length }),
      fc.array(fc.tuple(apostrophe, hyphen, invisible, caseChange), { minLength: words.length, maxLength: words.length }),
    )
    .map(([gaps, styles]) =>
      words
        .map((text, index) => {
          const [quoteMark, dash, hidden, casing] = styles[index]!;
          let styled = text.replaceAll("'", quoteMark).replaceAll('-', dash);
          // An invisible character inside a word (after its first character), where a soft hyphen would go.
          if (styled.length > 1 && !styled.startsWith('$')) styled = styled.slice(0, 1) + hidden + styled.slice(1);
          if (casing === 'upper') styled = styled.toUpperCase();
          if (casing === 'lower') styled = styled.toLowerCase();
          return styled + (index < words.length - 1 ? gaps[index] : '');
        })
        .join(''),
    );
}

describe('quoteOccursIn', () => {
  it('is true exactly when the normalized quote occurs in the normalized page text with whole numbers at its ends (any strings)', () => {
    // Digits and separators are frequent so that numbers meet at the quote's edges.
    const piece = fc.string({ unit: fc.oneof(fc.constantFrom('1', '0', ',', '.', '$', ' '), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 16 });
    fc.assert(
      fc.property(piece, piece, piece, fc.boolean(), (before, quote, after, embed) => {
        const page = embed ? `${before}${quote}${after}` : `${before}${after}`;
        const needle = normalizeForMatch(quote);
        const text = normalizeForMatch(page);
        // The rule restated over all occurrences, independently of the implementation's search.
        let expected = false;
        for (let at = 0; needle.length > 0 && at + needle.length <= text.length; at++) {
          if (text.slice(at, at + needle.length) !== needle) continue;
          const wholeStart = !/^\d/.test(needle) || !/(\d|\d[.,])$/.test(text.slice(Math.max(0, at - 2), at));
          const wholeEnd = !/\d$/.test(needle) || !/^(\d|[.,]\d)/.test(text.slice(at + needle.length));
          if (wholeStart && wholeEnd) expected = true;
        }
        assert.equal(quoteOccursIn(quote, page), expected);
        // And never a found without the normalized quote in the normalized text.
        if (expected) assert.ok(text.includes(needle));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds a quote the page writes with other white space, NBSP, soft hyphens, typographic marks or case', () => {
    fc.assert(
      fc.property(
        quoteWords.chain((words) => fc.tuple(fc.constant(words.join(' ')), filler, pageVariant(words), filler)),
        ([quote, before, written, after]) => {
          assert.ok(quoteOccursIn(quote, `${before}\n${written}\n${after}`), `${JSON.stringify(quote)} in ${JSON.stringify(written)}`);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('does not find a quote whose amount the page states differently', () => {
    fc.assert(
      fc.property(
        quoteWords.chain((words) =>
          fc.tuple(
            fc.constant(words),
            amount.filter((other) => !words.includes(other)),
            filler,
            filler,
          ),
        ).chain(([words, other, before, after]) =>
          fc.tuple(fc.constant(words.join(' ')), pageVariant(words.map((text) => (text.startsWith('$') ? other : text))), fc.constant(before), fc.constant(after)),
        ),
        ([quote, written, before, after]) => {
          assert.equal(quoteOccursIn(quote, `${before} ${written} ${after}`), false, `${JSON.stringify(quote)} in ${JSON.stringify(written)}`);
        },
      ),
      { numRuns: 1500 },
    );
  });

  // Whole numbers at the quote's edges; letters and separators exactly as normalized.
  const examples: Array<[quote: string, page: string, found: boolean]> = [
    ['up to $10,000', 'up to $1O,000', false],
    ['up to $2', 'up to $200,000', false],
    ['maximum grant: $10,000', 'maximum grant: $10,000,000', false],
    ['maximum grant: $10,000', 'maximum grant: $10,000.50', false],
    ['000 for roofs', '$10,000 for roofs', false],
    ['5 dollars', '25 dollars', false],
    ['up to $10,000', 'upto $10,000', false],
    ['homeowners grants', 'homeowners-grants', false],
    ["owner's share", 'owners share', false],
    ['up to $10,000', 'up to $10,000.', true],
    ['up to $10,000', 'up to $10,000-$15,000', true],
    ['up to $10,000', 'Up to $10,000, depending', true],
    ['10,000 dollars', 'de 10,000 dollars', true],
    ['grants up to $5', 'grants up to $5 per square foot', true],
    ['ogram offers up to', 'The program offers up to', true],
  ];
  for (const [quote, page, found] of examples) {
    it(`${JSON.stringify(quote)} in ${JSON.stringify(page)}: ${found ? 'found' : 'not found'}`, () => assert.equal(quoteOccursIn(quote, page), found));
  }

  it('never finds a quote that normalizes to nothing', () => {
    for (const quote of ['', ' ', '\u00A0\u00AD\u200B']) assert.equal(quoteOccursIn(quote, 'any page text'), false);
  });
});
