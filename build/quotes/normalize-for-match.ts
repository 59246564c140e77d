/**
 * The one normalization a quote and a fetched page's text both go through before the quote is looked for
 * (issue 22 item 3). corpus/README.md ("Quote matching") states it step by step; a change here is a change
 * of what `found` means, so that text and this file change together.
 */

/**
 * Typographic quotes, apostrophes and dashes folded to ASCII. Applied before NFKC (which would otherwise
 * turn U+2033 DOUBLE PRIME into two single primes, i.e. two apostrophes) and again after it (NFKC turns a few
 * compatibility forms into members of this table, e.g. U+FE58 SMALL EM DASH into U+2014).
 */
const TYPOGRAPHIC_TO_ASCII: ReadonlyMap<string, string> = new Map([
  ['\u2018', "'"], ['\u2019', "'"], ['\u201A', "'"], ['\u201B', "'"], ['\u2032', "'"], ['\u02BC', "'"],
  ['\u201C', '"'], ['\u201D', '"'], ['\u201E', '"'], ['\u201F', '"'], ['\u2033', '"'],
  ['\u2010', '-'], ['\u2011', '-'], ['\u2012', '-'], ['\u2013', '-'], ['\u2014', '-'], ['\u2015', '-'], ['\u2212', '-'],
  ['\u2044', '/'], ['\u2215', '/'],
]);
const TYPOGRAPHIC = /[\u02BC\u2018\u2019\u201A\u201B\u2032\u201C-\u201F\u2033\u2010-\u2015\u2212\u2044\u2215]/g;

/**
 * A fraction a page draws as one character (`½`: U+00BC-U+00BE, U+2150-U+215E, U+2189) or as superscript
 * digits, a slash and subscript digits (`¹/₂`), after the slashes are folded. Each becomes a space and
 * `n/d`, so `48½`, `48¹/₂` and `48 1/2` are one amount and none of them is `481/2`.
 */
const FRACTION = /[\u00BC-\u00BE\u2150-\u215E\u2189]|[\u2070\u00B9\u00B2\u00B3\u2074-\u2079]+\/[\u2080-\u2089]+/g;

function spellFractions(text: string): string {
  return text.replace(FRACTION, (fraction) => ` ${foldTypographic(fraction.normalize('NFKC'))}`);
}

/** Soft hyphen and the zero-width characters: invisible, so a person never reads them as part of a word. */
const INVISIBLE = /[\u00AD\u200B\u200C\u200D\u2060\uFEFF]/g;

/**
 * Unicode White_Space (PropList.txt), written out so the documented list and the code are the same list:
 * U+0009-000D, U+0020, U+0085, U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000.
 */
const WHITE_SPACE_RUN = /[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;

function foldTypographic(text: string): string {
  return text.replace(TYPOGRAPHIC, (char) => TYPOGRAPHIC_TO_ASCII.get(char) ?? char);
}

/**
 * Returns `text` as matching sees it: typographic fold, fractions spelled out (FRACTION), NFKC, typographic fold again, invisible characters
 * removed, lowercased (String.prototype.toLowerCase: Unicode's default, locale-independent lowercase
 * mapping), NFKC again (lowercasing can leave a string that NFKC would still change), every run of white
 * space made one U+0020, trimmed. The result is stable: normalizing it again changes nothing.
 */
export function normalizeForMatch(text: string): string {
  const folded = foldTypographic(spellFractions(foldTypographic(text)).normalize('NFKC'));
  return folded
    .replace(INVISIBLE, '')
    .toLowerCase()
    .normalize('NFKC')
    .replace(WHITE_SPACE_RUN, ' ')
    .trim();
}
