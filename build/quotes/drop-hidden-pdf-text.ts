/**
 * Takes the strings a page hides (find-hidden-pdf-text.ts) out of pdf.js's text items, at the place on the
 * page where each was drawn. pdf.js merges the strings drawn along one line into one item, so a hidden string
 * may be a piece of an item beside visible text; and it splits one string where a wide kern or space opens
 * inside it (the Federal Register's proof stamp: one TJ, an item per piece), so a hidden string may also run
 * over several items. The items along the string's stretch of its baseline are read as one text for the cut.
 */
import type { HiddenRun } from './find-hidden-pdf-text.ts';
import type { PdfTextItem } from './join-pdf-text-items.ts';

/** Items whose baseline turns by more than this from a run's (the cosine of the angle) are not on its line. */
const SAME_DIRECTION = 0.99;

/** Where `needle` (no white space) occurs in `text` with any white space between its characters: [start, end) pairs. */
function occurrences(text: string, needle: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let start = text.indexOf(needle[0]!); start !== -1; start = text.indexOf(needle[0]!, start + 1)) {
    let j = start;
    let i = 0;
    while (i < needle.length && j < text.length) {
      if (text[j] === needle[i]) {
        i += 1;
        j += 1;
      } else if (i > 0 && /\s/.test(text[j]!)) {
        j += 1;
      } else {
        break;
      }
    }
    if (i === needle.length) found.push([start, j]);
  }
  return found;
}

/** An item on a run's line: its index, and where it starts along the run's baseline (0 is where the run starts). */
interface Placed {
  index: number;
  along: number;
}

/** Where `item` starts along `run`'s baseline, or undefined when it is not on the run's stretch of that line. */
function placeOnRun(item: PdfTextItem, run: HiddenRun): number | undefined {
  const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform;
  const size = Math.hypot(c, d) || item.height || 1;
  const [cos, sin] = run.direction;
  const scale = Math.hypot(a, b);
  if (scale > 0 && (a * cos + b * sin) / scale < SAME_DIRECTION) return undefined;
  const along = (x - run.x) * cos + (y - run.y) * sin;
  const across = (y - run.y) * cos - (x - run.x) * sin;
  if (Math.abs(across) > Math.max(size, run.size) * 0.5) return undefined;
  const tolerance = size * 0.5;
  const low = Math.min(0, run.width) - tolerance;
  const high = Math.max(0, run.width) + tolerance;
  return along + item.width < low || along > high ? undefined : along;
}

/** Returns `items` with each hidden run cut out of the items drawn where it was shown. */
export function dropHiddenPdfText<T extends PdfTextItem>(items: readonly T[], hidden: readonly HiddenRun[]): T[] {
  if (hidden.length === 0) return [...items];
  const result = items.map((item) => ({ ...item }));
  for (const run of hidden) {
    const needle = run.text.replace(/\s+/g, '');
    if (needle.length === 0) continue;
    const line: Placed[] = [];
    result.forEach((item, index) => {
      const along = placeOnRun(item, run);
      if (along !== undefined && item.str.length > 0) line.push({ index, along });
    });
    // Read along the baseline, a space between items so that the cut may run from one into the next.
    line.sort((p, q) => p.along - q.along || p.index - q.index);
    let text = '';
    const owner: Array<{ at: number; offset: number } | undefined> = [];
    line.forEach((placed, at) => {
      if (at > 0) {
        text += ' ';
        owner.push(undefined);
      }
      const str = result[placed.index]!.str;
      text += str;
      for (let offset = 0; offset < str.length; offset++) owner.push({ at, offset });
    });
    const spots = occurrences(text, needle);
    if (spots.length === 0) continue;
    // The occurrence that starts nearest where the run starts, each item's characters taken as evenly wide;
    // within a tenth of the font size of each other (a word drawn twice over itself, for bold), the one in
    // the item pdf.js lists first, which is drawing order.
    const placeOf = ([start]: [number, number]): { distance: number; index: number } => {
      const { at, offset } = owner[start]!;
      const item = result[line[at]!.index]!;
      return { distance: Math.abs(line[at]!.along + (offset / item.str.length) * item.width), index: line[at]!.index };
    };
    const [start, end] = spots.reduce((p, q) => {
      const [a, b] = [placeOf(p), placeOf(q)];
      return b.distance < a.distance - run.size * 0.1 || (Math.abs(b.distance - a.distance) <= run.size * 0.1 && b.index < a.index) ? q : p;
    });
    const cut = new Map<number, Set<number>>();
    for (let position = start; position < end; position++) {
      const char = owner[position];
      if (char === undefined) continue;
      const offsets = cut.get(char.at) ?? new Set<number>();
      offsets.add(char.offset);
      cut.set(char.at, offsets);
    }
    for (const [at, offsets] of cut) {
      const item = result[line[at]!.index]!;
      // Offsets count UTF-16 units, as the match does; a match never ends inside a surrogate pair.
      item.str = item.str.split('').filter((_, offset) => !offsets.has(offset)).join('');
    }
  }
  return result;
}
