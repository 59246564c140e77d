/**
 * Puts a page's text items in reading order where the page is set in columns (issue 40 items 1 and 2): a
 * page may draw its columns row by row, so content-stream order reads across them. The items are grouped
 * into line pieces by baseline and gap (pdfminer's char margin), the pieces cut recursively along the
 * widest empty strip (a recursive X-Y cut, the idea behind pdfminer's box flow), and a footnote block that
 * ends a column is moved to the end of the page so the sentence it interrupts reads on into the next column.
 * A page with no column cut keeps content-stream order, so single-column pages read as they always did.
 */
import type { PdfTextItem } from './join-pdf-text-items.ts';

/** A gap wider than this share of the font size ends a line piece (wider than any word gap of justified text). */
const PIECE_GAP_SHARE = 1.5;
/** A baseline moved by more than this share of the font size starts a new line piece (as the join's new line). */
const NEW_LINE_SHARE = 0.5;
/** An empty vertical strip at least this share of the region's font size wide may separate two columns. */
const GUTTER_SHARE = 1;
/** A column holds at least this many line pieces ... */
const COLUMN_MIN_PIECES = 3;
/** ... whose median length is at least this many characters: a table's short cells are not columns of text. */
const COLUMN_MIN_CHARS = 15;
/** Text this share of the page's body size or smaller, ending a column, is a footnote block. */
const FOOTNOTE_SIZE_SHARE = 0.85;
/** Pages with more line pieces than this keep content order: the cut is quadratic in the worst case. */
const MAX_PIECES = 4000;

interface Piece {
  items: PdfTextItem[];
  left: number;
  right: number;
  bottom: number;
  top: number;
  size: number;
  chars: number;
}

function sizeOf(item: PdfTextItem): number {
  return Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || item.height || 1;
}

/** The items grouped into line pieces, in content order; white-space-only items are left out (the join spaces by gaps). */
function linePieces(items: readonly PdfTextItem[]): Piece[] {
  const pieces: Piece[] = [];
  let current: Piece | undefined;
  let baseline = 0;
  for (const item of items) {
    if (item.str.trim().length === 0) continue;
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = sizeOf(item);
    const sameLine = current !== undefined && Math.abs(y - baseline) <= Math.max(size, current.size) * NEW_LINE_SHARE
      && x >= current.left - size && x - current.right <= Math.max(size, current.size) * PIECE_GAP_SHARE;
    if (!sameLine) {
      current = { items: [], left: x, right: x, bottom: y, top: y, size, chars: 0 };
      pieces.push(current);
      baseline = y;
    }
    const piece = current!;
    piece.items.push(item);
    piece.left = Math.min(piece.left, x);
    piece.right = Math.max(piece.right, x + item.width);
    piece.bottom = Math.min(piece.bottom, y - 0.2 * size);
    piece.top = Math.max(piece.top, y + 0.8 * size);
    if (item.str.length > piece.chars) piece.size = size;
    piece.chars += item.str.length;
  }
  return pieces;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The empty strips of the pieces' projection on one axis, widest first: [start, end) of each. */
function emptyStrips(pieces: readonly Piece[], low: (p: Piece) => number, high: (p: Piece) => number): Array<[number, number]> {
  const sorted = [...pieces].sort((a, b) => low(a) - low(b));
  const strips: Array<[number, number]> = [];
  let reach = high(sorted[0]!);
  for (const piece of sorted.slice(1)) {
    if (low(piece) > reach) strips.push([reach, low(piece)]);
    reach = Math.max(reach, high(piece));
  }
  return strips.sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
}

/**
 * Lines of a column of text are about as wide as one another: at least this share of the pieces are at least
 * this share of the widest tenth's width (a table's cells, long and short, are not). The widest tenth, not
 * the side's width, since one side of a cut may still hold several columns.
 */
const COLUMN_FULL_SHARE = 0.6;

function isTextColumn(pieces: readonly Piece[]): boolean {
  if (pieces.length < COLUMN_MIN_PIECES || median(pieces.map((p) => p.chars)) < COLUMN_MIN_CHARS) return false;
  const widths = pieces.map((p) => p.right - p.left).sort((a, b) => a - b);
  const wide = widths[Math.floor(widths.length * 0.9)] ?? 0;
  return widths.filter((width) => width >= wide * COLUMN_FULL_SHARE).length >= pieces.length * COLUMN_FULL_SHARE;
}

/** The pieces in reading order; `cut.columns` is set when a column cut was made anywhere. */
function readingOrder(pieces: Piece[], cut: { columns: boolean }): Piece[] {
  if (pieces.length <= 1) return pieces;
  const size = median(pieces.map((p) => p.size));
  for (const [start, end] of emptyStrips(pieces, (p) => p.left, (p) => p.right)) {
    if (end - start < size * GUTTER_SHARE) break;
    const left = pieces.filter((p) => p.right <= start);
    const right = pieces.filter((p) => p.left >= end);
    if (isTextColumn(left) && isTextColumn(right)) {
      cut.columns = true;
      return [...readingOrder(left, cut), ...readingOrder(right, cut)];
    }
  }
  // No columns here: the widest horizontal strip (the top-most of equals: a heading's) splits the region.
  const strips = emptyStrips(pieces, (p) => p.bottom, (p) => p.top);
  if (strips.length === 0) return [...pieces].sort((a, b) => a.left - b.left);
  const widest = strips[0]![1] - strips[0]![0];
  const [, at] = strips.filter(([start, end]) => end - start >= widest - 0.01).reduce((a, b) => (b[1] > a[1] ? b : a));
  const above = pieces.filter((p) => p.bottom >= at);
  const below = pieces.filter((p) => p.bottom < at);
  return [...readingOrder(above, cut), ...readingOrder(below, cut)];
}

/**
 * Moves each run of small print that ends a column (the next piece is body text higher on the page) to the
 * end of the page; the body size is the size most characters are set in.
 */
function deferFootnotes(ordered: readonly Piece[]): Piece[] {
  const weight = new Map<number, number>();
  for (const piece of ordered) weight.set(Math.round(piece.size * 2) / 2, (weight.get(Math.round(piece.size * 2) / 2) ?? 0) + piece.chars);
  const body = [...weight].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const small = (piece: Piece) => piece.size <= body * FOOTNOTE_SIZE_SHARE;
  const kept: Piece[] = [];
  const deferred: Piece[] = [];
  for (let index = 0; index < ordered.length;) {
    if (!small(ordered[index]!)) {
      kept.push(ordered[index]!);
      index += 1;
      continue;
    }
    let end = index;
    while (end < ordered.length && small(ordered[end]!)) end += 1;
    const run = ordered.slice(index, end);
    const next = ordered[end];
    const endsColumn = next !== undefined && next.top > Math.max(...run.map((p) => p.top));
    (endsColumn ? deferred : kept).push(...run);
    index = end;
  }
  return [...kept, ...deferred];
}

/**
 * Returns the page's items in reading order: column by column, top down, footnote blocks that end a column
 * last, when the page has columns of text; otherwise `items` as they are.
 */
export function orderPdfTextColumns(items: readonly PdfTextItem[]): readonly PdfTextItem[] {
  const pieces = linePieces(items);
  if (pieces.length < 2 * COLUMN_MIN_PIECES || pieces.length > MAX_PIECES) return items;
  const cut = { columns: false };
  const ordered = readingOrder(pieces, cut);
  if (!cut.columns) return items;
  // The line ends pdf.js marked were for content order; in reading order the baselines say where lines end.
  return deferFootnotes(ordered).flatMap((piece) => piece.items.map((item) => ({ ...item, hasEOL: false })));
}
