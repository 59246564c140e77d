/** Whether a source review's quote is in a fetched page's text: the mechanical test behind `found`. */
import { dropZeroCents } from './drop-zero-cents.ts';
import { normalizeForMatch } from './normalize-for-match.ts';
import { LINE_BREAK, preparePageText, type PreparedPageText } from './prepare-page-text.ts';

// ASCII digits: NFKC has already made full-width ones ASCII, and US amounts are written in them.
function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/** Whether the page's number goes on past `index` (a digit, or a `,`/`.` then a digit) in direction `step`. */
function numberContinues(page: string, index: number, step: 1 | -1): boolean {
  const next = page[index];
  if (isDigit(next)) return true;
  return (next === ',' || next === '.') && isDigit(page[index + step]);
}

/**
 * Where `needle` ends when read in `text` from `start` with the PDF line breaks' other readings allowed, or
 * -1. No backtracking is needed: a break's space or hyphen is left out only where the needle's character
 * is not that space or hyphen, and the character after a break is a letter or digit.
 */
function matchAcrossBreaks(needle: string, text: string, breaks: Uint8Array, start: number): number {
  let j = start;
  for (let i = 0; i < needle.length;) {
    if (text[j] === needle[i]) {
      i += 1;
      j += 1;
    } else if ((breaks[j] ?? 0) !== 0) {
      j += 1;
    } else if (text[j] === '-' && breaks[j + 1] === LINE_BREAK.hyphenWord) {
      j += 2;
    } else {
      return -1;
    }
  }
  return j;
}

/**
 * True when the normalized `quote`, without zero cents tails, occurs in the prepared page text as one
 * contiguous substring whose numbers are whole: a quote that ends with a digit is not found where the page's
 * number goes on (`up to $2` is not in `up to $200,000`, `$10,000` is not in `$10,000,000`), nor one that
 * starts with a digit where the page's number began earlier (`000 for roofs` is not in `$10,000 for roofs`).
 * In PDF text a line break may also read as its LINE_BREAK kind allows (`compile` and `com-pile` are in
 * `com-` / `pile`). Nothing looser: no fuzzy matching, no word reordering. A quote that normalizes to
 * nothing is never found. A `page` given as a string is prepared as HTML text (no line-break readings);
 * prepare a page once (preparePageText) when several quotes are looked for in it.
 */
export function quoteOccursIn(quote: string, page: string | PreparedPageText): boolean {
  const needle = dropZeroCents(normalizeForMatch(quote));
  if (needle.length === 0) return false;
  const { text, breaks } = typeof page === 'string' ? preparePageText(page, 'html') : page;
  const checkStart = isDigit(needle[0]);
  const checkEnd = isDigit(needle[needle.length - 1]);
  const whole = (start: number, end: number) => !(checkStart && numberContinues(text, start - 1, -1)) && !(checkEnd && numberContinues(text, end, 1));
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (whole(at, at + needle.length)) return true;
  }
  if (breaks === undefined) return false;
  for (let at = text.indexOf(needle[0]!); at !== -1; at = text.indexOf(needle[0]!, at + 1)) {
    const end = matchAcrossBreaks(needle, text, breaks, at);
    if (end !== -1 && whole(at, end)) return true;
  }
  return false;
}
