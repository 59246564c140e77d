import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizeForMatch } from '../../../build/quotes/normalize-for-match.ts';
import { preparePageText } from '../../../build/quotes/prepare-page-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';

/** A zero cents tail (`.00` after a digit, no digit after it) taken out, as the matching rule reads amounts. */
function withoutZeroCents(text: string): string {
  return text.replace(/(?<=[0-9])\.00(?![0-9])/g, '');
}

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
        const needle = withoutZeroCents(normalizeForMatch(quote));
        const text = withoutZeroCents(normalizeForMatch(page));
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
    // A zero cents tail on either side is the same amount; nothing else about an amount loosens.
    ['a fee of $5,000 per home', 'A fee of $5,000.00 per home', true],
    ['a fee of $5,000.00 per home', 'A fee of $5,000 per home', true],
    ['up to $5,000', 'up to $5,000.00.', true],
    ['$5.00 late fee', '$5 late fee', true],
    ['up to $5,000', 'up to $5,000.0', false],
    ['up to $5,000.50', 'up to $5,000', false],
    ['up to $5,000.00', 'up to $5,000.001', false],
    ['up to $5,000.00', 'up to $5,000,000', false],
    ['up to $10K', 'up to $10,000', false],
    ['up to $10,000', 'up to $10K', false],
  ];
  for (const [quote, page, found] of examples) {
    it(`${JSON.stringify(quote)} in ${JSON.stringify(page)}: ${found ? 'found' : 'not found'}`, () => assert.equal(quoteOccursIn(quote, page), found));
  }

  // PDF page text as joinPdfTextItems writes it: a line break is `\n`, pages are joined by `\n\f\n`.
  const pdfExamples: Array<[quote: string, page: string, found: boolean]> = [
    ['a compiled list', 'a com-\npiled list', true],
    ['a com-piled list', 'a com-\npiled list', true],
    ['a com- piled list', 'a com-\npiled list', true],
    ['a zero-percent interest rate', 'with a zero-\npercent interest rate', true],
    ['a zeropercent interest rate', 'with a zero-\npercent interest rate', true],
    ['non-reversible', 'is non-\nreversible', true],
    ['non-reversible', 'is non\u2010\nreversible', true],
    // pdf.js drops a soft hyphen (a format character) and leaves the two halves on two lines.
    ['including roofs', 'repairs in\ncluding roofs', true],
    ['in cluding roofs', 'repairs in\ncluding roofs', true],
    ['homeowners grants', 'homeowners\ngrants', true],
    ['the 2026-2027 year', 'the 2026-\n2027 year', true],
    ['the 2026- 2027 year', 'the 2026-\n2027 year', true],
    ['up to 10-12x', 'up to 10-\n12x', true],
    ['accéder', 'acce\u0301-\nder', true],
    // Numbers stay whole: a break never joins digits, and a number broken after a comma is not rejoined.
    ['the 20262027 year', 'the 2026-\n2027 year', false],
    ['up to 1012x', 'up to 10-\n12x', false],
    ['up to $2,500', 'up to $2,\n000', false],
    ['up to $2,500', 'up to $2,\n500', false],
    ['up to $25,000', 'up to $2-\n5,000', false],
    ['up to $2', 'up to $2-\n000', true],
    ['up to $25', 'up to $2\n5', false],
    // A hyphen that follows a space is a dash, not a broken word.
    ['pre-existing', 'pre -\nexisting', false],
    // A page break is not a line break.
    ['a compiled list', 'a com-\n\f\npiled list', false],
  ];
  for (const [quote, page, found] of pdfExamples) {
    it(`pdf: ${JSON.stringify(quote)} in ${JSON.stringify(page)}: ${found ? 'found' : 'not found'}`, () => {
      assert.equal(quoteOccursIn(quote, preparePageText(page, 'pdf')), found);
    });
  }

  it('reads line-end hyphens and line breaks so only in pdf text', () => {
    for (const format of ['html', 'text'] as const) {
      assert.equal(quoteOccursIn('a compiled list', preparePageText('a com-\npiled list', format)), false);
      assert.equal(quoteOccursIn('including roofs', preparePageText('in\ncluding roofs', format)), false);
    }
    assert.equal(quoteOccursIn('a compiled list', 'a com-\npiled list'), false);
  });

  it('matches pdf text as other text when no line break is involved (any strings)', () => {
    const piece = fc.string({ unit: fc.oneof(fc.constantFrom('1', '0', ',', '.', '$', ' ', '-', 'a'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 16 });
    fc.assert(
      fc.property(piece, piece, piece, (before, quote, after) => {
        const page = `${before}${quote}${after}`.replace(/\n/g, ' ');
        assert.equal(quoteOccursIn(quote, preparePageText(page, 'pdf')), quoteOccursIn(quote, page));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds in pdf text every quote found in the same text with spaces for its line breaks', () => {
    const piece = fc.string({ unit: fc.oneof(fc.constantFrom('1', '0', ',', '$', ' ', '-', 'a', 'b', '\n', '\u00AD'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 20 });
    fc.assert(
      fc.property(piece, piece, (page, quote) => {
        if (quoteOccursIn(quote, page.replace(/\n/g, ' '))) assert.ok(quoteOccursIn(quote, preparePageText(page, 'pdf')));
      }),
      { numRuns: 3000 },
    );
  });

  it('never finds a quote that normalizes to nothing', () => {
    for (const quote of ['', ' ', '\u00A0\u00AD\u200B']) assert.equal(quoteOccursIn(quote, 'any page text'), false);
  });
});
