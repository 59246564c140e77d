/**
 * Takes the strings a page hides (find-hidden-pdf-text.ts) out of pdf.js's text items: pdf.js merges the
 * strings drawn along one line into one item, so a hidden string is cut out of the item it sits in, at the
 * place on the line where it was drawn.
 */
import type { HiddenRun } from './find-hidden-pdf-text.ts';
import type { PdfTextItem } from './join-pdf-text-items.ts';

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

/** Returns `items` with each hidden run cut out of the item drawn where it was shown. */
export function dropHiddenPdfText<T extends PdfTextItem>(items: readonly T[], hidden: readonly HiddenRun[]): T[] {
  if (hidden.length === 0) return [...items];
  const result = items.map((item) => ({ ...item }));
  for (const run of hidden) {
    const needle = run.text.replace(/\s+/g, '');
    if (needle.length === 0) continue;
    for (const item of result) {
      const x = item.transform[4] ?? 0;
      const y = item.transform[5] ?? 0;
      const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || item.height || 1;
      if (Math.abs(y - run.y) > Math.max(size, run.size) * 0.5 || run.x < x - size * 0.5 || run.x > x + item.width + size * 0.5) continue;
      const spots = occurrences(item.str, needle);
      if (spots.length === 0) continue;
      // The occurrence nearest where the run starts along the item, the item's characters taken as evenly wide.
      const expected = item.width > 0 ? ((run.x - x) / item.width) * item.str.length : 0;
      const [start, end] = spots.reduce((a, b) => (Math.abs(b[0] - expected) < Math.abs(a[0] - expected) ? b : a));
      item.str = item.str.slice(0, start) + item.str.slice(end);
      break;
    }
  }
  return result;
}
