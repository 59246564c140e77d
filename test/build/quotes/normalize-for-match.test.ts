import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normalizeForMatch } from '../../../build/quotes/normalize-for-match.ts';

const rows: Array<{ what: string; input: string; expected: string }> = [
  { what: 'runs of ASCII white space', input: ' Up \t to\r\n\n$10,000 ', expected: 'up to $10,000' },
  { what: 'NBSP and narrow NBSP', input: 'Up\u00A0to\u202F$10,000', expected: 'up to $10,000' },
  { what: 'other Unicode White_Space', input: 'a\u0085b\u1680c\u2003d\u2028e\u2029f\u205Fg\u3000h\u000Bi\u000Cj', expected: 'a b c d e f g h i j' },
  { what: 'soft hyphen inside a word', input: 'assis\u00ADtance', expected: 'assistance' },
  { what: 'zero-width characters', input: 'ro\u200Bof\u200C \u200Dre\u2060pair\uFEFF', expected: 'roof repair' },
  { what: 'a zero-width space between two spaces', input: 'a \u200B b', expected: 'a b' },
  { what: 'single typographic quotes', input: '\u2018a\u2019 \u201Ab\u201B c\u2032', expected: "'a' 'b' c'" },
  { what: 'double typographic quotes', input: '\u201Ca\u201D \u201Eb\u201F c\u2033', expected: '"a" "b" c"' },
  { what: 'modifier letter apostrophe (a real form writes youʼre)', input: 'you\u02BCre', expected: "you're" },
  { what: 'dashes and minus', input: '1\u20102\u20113\u20124\u20135\u20146\u20157\u22128', expected: '1-2-3-4-5-6-7-8' },
  { what: 'compatibility forms NFKC makes into dashes and quotes', input: 'a\uFE58b\uFF07c\uFF02d', expected: 'a-b\'c"d' },
  { what: 'ligatures and full-width letters (NFKC)', input: '\uFB01nancial \uFF21\uFF22\uFF23', expected: 'financial abc' },
  { what: 'composed and decomposed accents are one', input: 'cafe\u0301 Caf\u00E9', expected: 'caf\u00E9 caf\u00E9' },
  { what: 'case: Spanish capitals', input: 'HASTA \u00C9L SE\u00D1OR', expected: 'hasta \u00E9l se\u00F1or' },
  { what: 'case: mathematical bold capitals (NFKC then lowercase)', input: '\u{1D400}\u{1D401}', expected: 'ab' },
  { what: 'an invisible between a letter and its accent (NFKC after removal composes them)', input: 'Cafe\u00AD\u0301', expected: 'caf\u00E9' },
  { what: 'nothing but white space and invisibles', input: ' \u00A0\u00AD\u200B\n', expected: '' },
  { what: 'a vulgar fraction is a space and n/d', input: '48\u00BD cents, \u215C mile', expected: '48 1/2 cents, 3/8 mile' },
  { what: 'superscript digits, a fraction slash and subscript digits are a space and n/d', input: '48\u00B9\u2044\u2082 and 2\u00B3/\u2084', expected: '48 1/2 and 2 3/4' },
  { what: 'a fraction slash or a division slash alone is a solidus', input: '1\u20442 3\u22154', expected: '1/2 3/4' },
  { what: 'a superscript footnote mark is not a fraction', input: '$25,000\u00B9 in repairs', expected: '$25,0001 in repairs' },
  { what: 'ASCII punctuation is kept', input: '$12,000.00 (per home) - up to 50%', expected: '$12,000.00 (per home) - up to 50%' },
];

describe('normalizeForMatch', () => {
  for (const row of rows) {
    it(row.what, () => assert.equal(normalizeForMatch(row.input), row.expected));
  }

  it('is stable: normalizing twice changes nothing (any Unicode string)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 60 }), (a, b) => {
        for (const text of [a, b]) {
          const once = normalizeForMatch(text);
          assert.equal(normalizeForMatch(once), once);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('leaves no white space run, no invisible, no typographic character and no capital behind', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const normalized = normalizeForMatch(text);
        assert.doesNotMatch(normalized, /^ | $|  /);
        assert.doesNotMatch(normalized, /[\t\n\r\u00A0\u00AD\u200B-\u200D\u2060\uFEFF\u02BC\u2018-\u201F\u2032\u2033\u2010-\u2015\u2212]/);
        assert.equal(normalized, normalized.toLowerCase());
      }),
      { numRuns: 2000 },
    );
  });
});
