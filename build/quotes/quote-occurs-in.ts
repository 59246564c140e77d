/** Whether a source review's quote is in a fetched page's text: the mechanical test behind `found`. */
import { normalizeForMatch } from './normalize-for-match.ts';

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
 * True when the normalized `quote` occurs in the normalized `pageText` as one contiguous substring whose
 * numbers are whole: a quote that ends with a digit is not found where the page's number goes on (`up to
 * $2` is not in `up to $200,000`, `$10,000` is not in `$10,000,000`), nor one that starts with a digit where
 * the page's number began earlier (`000 for roofs` is not in `$10,000 for roofs`). Nothing looser: no fuzzy
 * matching, no word reordering. A quote that normalizes to nothing is never found.
 */
export function quoteOccursIn(quote: string, pageText: string): boolean {
  const needle = normalizeForMatch(quote);
  if (needle.length === 0) return false;
  const page = normalizeForMatch(pageText);
  const checkStart = isDigit(needle[0]);
  const checkEnd = isDigit(needle[needle.length - 1]);
  for (let at = page.indexOf(needle); at !== -1; at = page.indexOf(needle, at + 1)) {
    if (checkStart && numberContinues(page, at - 1, -1)) continue;
    if (checkEnd && numberContinues(page, at + needle.length, 1)) continue;
    return true;
  }
  return false;
}
