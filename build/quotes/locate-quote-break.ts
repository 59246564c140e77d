/**
 * Where a quote that is not found stops matching a page: the longest start of the normalized quote that
 * the normalized page text holds, and the text on both sides of the point where it ends. This is what a
 * maintainer reads when a quote is reported gone (an amount changed, a word reworded, a line broken).
 */

/** Most code points of text each side of the break (and of the quote's rest) that a QuoteBreak shows. */
export const QUOTE_BREAK_CONTEXT_CHARS = 40;

/** Where the quote broke off, all text normalized (corpus/README.md, "Quote matching"); lengths in code points. */
export interface QuoteBreak {
  /** Code points of the quote's longest start that occurs in the page text (0: not even its first character). */
  matchedChars: number;
  /** Code points of the whole normalized quote; equal to matchedChars when the whole quote occurs but a number in it is not whole there. */
  quoteChars: number;
  /** The page text just before the break: the end of the matched start at its first occurrence, at most QUOTE_BREAK_CONTEXT_CHARS. */
  pageBefore: string;
  /** The page text from the break on: what the page says instead, at most QUOTE_BREAK_CONTEXT_CHARS. */
  pageAfter: string;
  /** The quote from the break on: what it expected there, at most QUOTE_BREAK_CONTEXT_CHARS. */
  quoteAfter: string;
}

/**
 * Locates the break of `quote` in `page`, both already normalized. Binary search on the start's length,
 * one substring search per step: a start that occurs implies every shorter start occurs, so the longest is
 * found in O(log m) searches of the page rather than one per length.
 */
export function locateQuoteBreak(quote: string, page: string): QuoteBreak {
  // ends[k]: UTF-16 length of the quote's first k code points, so no start splits a surrogate pair.
  const ends = [0];
  for (const char of quote) ends.push(ends.at(-1)! + char.length);
  const quoteChars = ends.length - 1;
  let low = 0;
  let high = quoteChars;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (page.includes(quote.slice(0, ends[middle]!))) low = middle;
    else high = middle - 1;
  }
  const start = quote.slice(0, ends[low]!);
  const at = page.indexOf(start) + start.length;
  return {
    matchedChars: low,
    quoteChars,
    pageBefore: lastCodePoints(page.slice(0, at), QUOTE_BREAK_CONTEXT_CHARS),
    pageAfter: firstCodePoints(page, at, QUOTE_BREAK_CONTEXT_CHARS),
    quoteAfter: firstCodePoints(quote, ends[low]!, QUOTE_BREAK_CONTEXT_CHARS),
  };
}

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** At most `count` code points of `text` from UTF-16 index `from` (a code point boundary). */
function firstCodePoints(text: string, from: number, count: number): string {
  let end = from;
  for (let taken = 0; taken < count && end < text.length; taken += 1) {
    end += isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return text.slice(from, end);
}

/** At most the last `count` code points of `text`. */
function lastCodePoints(text: string, count: number): string {
  let start = text.length;
  for (let taken = 0; taken < count && start > 0; taken += 1) {
    start -= isLow(text.charCodeAt(start - 1)) && isHigh(text.charCodeAt(start - 2)) ? 2 : 1;
  }
  return text.slice(start);
}
