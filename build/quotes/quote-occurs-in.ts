/** Whether a source review's quote is in a fetched page's text: the mechanical test behind `found`. */
import { normalizeForMatch } from './normalize-for-match.ts';

/**
 * True when the normalized `quote` occurs in the normalized `pageText` as one contiguous substring, and
 * only then: no fuzzy matching, no word reordering. A quote that normalizes to nothing is never found (an
 * empty string occurs everywhere, which proves nothing).
 */
export function quoteOccursIn(quote: string, pageText: string): boolean {
  const needle = normalizeForMatch(quote);
  return needle.length > 0 && normalizeForMatch(pageText).includes(needle);
}
