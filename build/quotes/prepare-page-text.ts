/**
 * A page's text made ready for quote matching once, however many quotes are looked for in it: normalized,
 * zero cents tails dropped, and, for PDF text, each line break marked with the readings it allows
 * (corpus/README.md, "Quote matching").
 */
import { dropZeroCents } from './drop-zero-cents.ts';
import { normalizeForMatch } from './normalize-for-match.ts';

/** What a PDF line break may read as, besides the one space normalization makes of it. */
export const LINE_BREAK = {
  /** Letter, line break, letter: may also read as nothing (pdf.js drops a soft hyphen: `in` / `cluding`). */
  word: 1,
  /** Letter, hyphen, line break, letter: may read as the hyphen alone or as nothing (`com-` / `pile`). */
  hyphenWord: 2,
  /** A hyphen and a line break with a digit on either side: may read as the hyphen alone, never as nothing. */
  hyphenNumber: 3,
} as const;

/** A page's text as quoteOccursIn reads it. */
export interface PreparedPageText {
  /** The text normalized (normalizeForMatch), then without zero cents tails (dropZeroCents). */
  readonly text: string;
  /** For PDF text with line breaks: at the index of each space that is a line break, its LINE_BREAK kind; else 0. */
  readonly breaks: Uint8Array | undefined;
}

const LETTER_END = /\p{L}\p{M}*$/u;
const LETTER_HYPHEN_END = /\p{L}\p{M}*-$/u;
const ALNUM_HYPHEN_END = /[\p{L}\p{N}]\p{M}*-$/u;
const LETTER_START = /^\p{L}/u;
const ALNUM_START = /^[\p{L}\p{N}]/u;

/** The reading a break between the normalized lines `before` and `after` allows, or 0 for a plain space. */
function breakKind(before: string, after: string): number {
  const tail = before.slice(-4);
  const head = after.slice(0, 2);
  if (LETTER_HYPHEN_END.test(tail) && LETTER_START.test(head)) return LINE_BREAK.hyphenWord;
  if (ALNUM_HYPHEN_END.test(tail) && ALNUM_START.test(head)) return LINE_BREAK.hyphenNumber;
  if (LETTER_END.test(tail) && LETTER_START.test(head)) return LINE_BREAK.word;
  return 0;
}

/**
 * Prepares `text` of the given format. Only PDF text has line breaks of its own (`\n` from
 * joinPdfTextItems; pages are joined by `\n\f\n`, whose empty line keeps a break from joining two pages);
 * an HTML or plain-text line break is where the markup or the file wrapped, not the printed line.
 */
export function preparePageText(text: string, format: 'html' | 'pdf' | 'text'): PreparedPageText {
  if (format !== 'pdf' || !text.includes('\n')) return { text: dropZeroCents(normalizeForMatch(text)), breaks: undefined };
  // Line by line: the lines joined by one space are the whole text normalized, since a line break is white
  // space and nothing in normalization reaches across one.
  const lines: string[] = [];
  let length = 0;
  let previous: string | undefined;
  const marks: Array<[at: number, kind: number]> = [];
  for (const line of text.split('\n')) {
    const normalized = dropZeroCents(normalizeForMatch(line));
    if (normalized.length === 0) {
      previous = undefined;
      continue;
    }
    if (lines.length > 0) {
      const kind = previous === undefined ? 0 : breakKind(previous, normalized);
      if (kind !== 0) marks.push([length, kind]);
      length += 1;
    }
    lines.push(normalized);
    length += normalized.length;
    previous = normalized;
  }
  const joined = lines.join(' ');
  if (marks.length === 0) return { text: joined, breaks: undefined };
  const breaks = new Uint8Array(joined.length);
  for (const [at, kind] of marks) breaks[at] = kind;
  return { text: joined, breaks };
}
