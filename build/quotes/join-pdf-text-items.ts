/** Joins the text items pdf.js finds on one PDF page into lines of text, in the order the page draws them. */

/** The fields of a pdf.js TextItem this join reads (the worker passes pdf.js's items as they are). */
export interface PdfTextItem {
  str: string;
  /** The item's text matrix [a, b, c, d, e, f]: (e, f) is where its baseline starts. */
  transform: readonly number[];
  width: number;
  height: number;
  /** pdf.js marks the last item of a line it recognized. */
  hasEOL: boolean;
}

/** A baseline moved by more than this share of the line's font size (the larger of two items') starts a new line. */
const NEW_LINE_SHARE = 0.5;
/** A baseline raised by more than this share of the line's font size, on the same line, is a superscript. */
const RAISED_SHARE = 0.15;

// Han, kana, CJK punctuation and full-width forms: Chinese and Japanese lines break between any two
// characters without a space. Hangul is not here: Korean spaces its words and breaks lines at the spaces.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF00-\uFFEF]/u;
const CJK_END = new RegExp(`${CJK.source}$`, 'u');
const CJK_START = new RegExp(`^${CJK.source}`, 'u');

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}
/** A horizontal gap wider than this share of the font size reads as a space between words. */
const WORD_GAP_SHARE = 0.15;
/** A lone capital at least this many times the next item's size is a drop cap (or a raised initial) of its word. */
const DROP_CAP_SCALE = 1.8;

/**
 * Whether `item` goes on the word a drop cap `previous` begins: a lone capital, much larger, then a
 * lowercase letter starting right of it within half the capital's size (`T` beside `he federal government`).
 */
function continuesDropCap(previous: { str: string; endX: number; size: number }, item: PdfTextItem, x: number, size: number): boolean {
  return /^\p{Lu}$/u.test(previous.str) && previous.size >= size * DROP_CAP_SCALE && /^\p{Ll}/u.test(item.str)
    && x >= previous.endX - size && x - previous.endX <= previous.size * 0.5;
}

/**
 * Returns the page's text: items in content-stream order (the order pdf.js's own text layer uses, which is
 * reading order for the flyers and guidelines cities publish; a two-column page that draws column by
 * column reads column by column). A line break follows an item pdf.js marks as ending a line or comes where
 * the baseline moves by over half the line's font size (the larger of the two items' sizes, so a small
 * superscript stays on its line), except between two CJK characters, where a line break is nothing; a
 * space comes where a visible gap separates two items on one line, where the next item starts left of the
 * previous one's end, or where a raised digit follows a digit (a footnote mark after an amount); items that
 * touch are joined without a space, so a word drawn in pieces (kerning, a bold run, a raised `th`) stays one;
 * and a drop cap joins the word it begins (continuesDropCap), with neither space nor line break.
 */
export function joinPdfTextItems(items: readonly PdfTextItem[]): string {
  let text = '';
  let lineEnded = false;
  let previous: { str: string; endX: number; y: number; size: number } | undefined;
  for (const item of items) {
    if (item.str.length === 0) {
      // pdf.js emits empty items that only carry a line end.
      lineEnded ||= item.hasEOL;
      continue;
    }
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || item.height || 1;
    if (previous !== undefined && continuesDropCap(previous, item, x, size)) {
      // Joined as one word, whichever line the capital's baseline is on.
    } else if (previous !== undefined) {
      const lineSize = Math.max(size, previous.size);
      if (lineEnded || Math.abs(y - previous.y) > lineSize * NEW_LINE_SHARE) {
        // Only the ends are tested: a whole page's text must not be scanned once per line.
        if (!(CJK_END.test(text.slice(-2)) && CJK_START.test(item.str.slice(0, 2)))) text += '\n';
      } else if (x - previous.endX > size * WORD_GAP_SHARE || x < previous.endX - size) {
        text += ' ';
      } else if (y - previous.y > lineSize * RAISED_SHARE && isDigit(text[text.length - 1]) && isDigit(item.str[0])) {
        // `$25,000` and a raised `1` are two numbers; joined they would read as another amount.
        text += ' ';
      }
    }
    text += item.str;
    lineEnded = item.hasEOL;
    previous = { str: item.str, endX: x + item.width, y, size };
  }
  return text;
}
