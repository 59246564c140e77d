/**
 * Whether a quote not found in a PDF's text fails only where the text layer has glyphs with no Unicode
 * mapping (issue 40 item 2). pdf.js maps a glyph the font names in the Adobe Glyph List's way (`fi`, `f_i`,
 * `uniFB01`, `ffi`, `f_f_i`: test/build/quotes/unmapped-glyphs.test.ts holds it), but a glyph without a
 * ToUnicode entry and with no name it knows (a subset's `g123`, a suffixed `fi.alt`) comes out as its raw
 * code, a C0 control: `\u0001nancial` where the page prints `financial`. Such a quote is `inconclusive`,
 * never `not-found`. corpus/README.md ("Quote matching") states the rule.
 */
import { dropZeroCents } from './drop-zero-cents.ts';
import { normalizeForMatch } from './normalize-for-match.ts';

/** The most letters one unmapped glyph stands for: `ffi` and `ffl`, the longest ligatures. */
export const UNMAPPED_GLYPH_MAX_LETTERS = 3;

/** What the text layer gives for a glyph with no mapping: a C0 control other than U+0009-U+000D, or U+FFFD. */
export function isUnmappedGlyph(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  return (code < 0x20 && (code < 0x09 || code > 0x0d)) || code === 0xfffd;
}

const LETTER = /\p{L}/u;
const UNMAPPED = /[\u0000-\u0008\u000E-\u001F\uFFFD]/;

/**
 * True when `quote` is in the normalized page text `text` (preparePageText's `text`) once each of some of
 * the page's unmapped glyphs stands for one to UNMAPPED_GLYPH_MAX_LETTERS of the quote's letters (never a
 * digit or a sign, so no amount is read into one), at least one of them used.
 */
export function quoteFailsAtUnmappedGlyphs(quote: string, text: string): boolean {
  if (!UNMAPPED.test(text)) return false;
  const q = dropZeroCents(normalizeForMatch(quote));
  if (q.length === 0) return false;
  const match = (i: number, j: number, used: boolean): boolean => {
    for (;;) {
      if (i === q.length) return used;
      if (j >= text.length) return false;
      if (q[i] === text[j]) {
        i += 1;
        j += 1;
        continue;
      }
      if (!isUnmappedGlyph(text[j])) return false;
      for (let letters = 1; letters <= UNMAPPED_GLYPH_MAX_LETTERS && i + letters <= q.length && LETTER.test(q[i + letters - 1]!); letters += 1) {
        if (match(i + letters, j + 1, true)) return true;
      }
      return false;
    }
  };
  for (let start = 0; start < text.length; start += 1) {
    if ((text[start] === q[0] || isUnmappedGlyph(text[start])) && match(0, start, false)) return true;
  }
  return false;
}
