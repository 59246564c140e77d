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

/** A baseline moved by more than this share of the font size starts a new line. */
const NEW_LINE_SHARE = 0.5;
/** A horizontal gap wider than this share of the font size reads as a space between words. */
const WORD_GAP_SHARE = 0.15;

/**
 * Returns the page's text: items in content-stream order (the order pdf.js's own text layer uses, which is
 * reading order for the flyers and guidelines cities publish; a two-column page that draws column by
 * column reads column by column). A line break follows an item pdf.js marks as ending a line or comes where
 * the baseline moves; a space comes where a visible gap separates two items on one line, or where the next
 * item starts left of the previous one's end; items that touch are joined without a space, so a word
 * drawn in pieces (kerning, a bold run) stays one word.
 */
export function joinPdfTextItems(items: readonly PdfTextItem[]): string {
  let text = '';
  let lineEnded = false;
  let previous: { endX: number; y: number } | undefined;
  for (const item of items) {
    if (item.str.length === 0) {
      // pdf.js emits empty items that only carry a line end.
      lineEnded ||= item.hasEOL;
      continue;
    }
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || item.height || 1;
    if (previous !== undefined) {
      if (lineEnded || Math.abs(y - previous.y) > size * NEW_LINE_SHARE) text += '\n';
      else if (x - previous.endX > size * WORD_GAP_SHARE || x < previous.endX - size) text += ' ';
    }
    text += item.str;
    lineEnded = item.hasEOL;
    previous = { endX: x + item.width, y };
  }
  return text;
}
