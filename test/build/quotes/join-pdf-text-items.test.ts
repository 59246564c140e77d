import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { joinPdfTextItems, type PdfTextItem } from '../../../build/quotes/join-pdf-text-items.ts';

/** An item of 12-point text at (x, y), `width` wide. */
function item(str: string, x: number, y: number, width: number, hasEOL = false): PdfTextItem {
  return { str, transform: [12, 0, 0, 12, x, y], width, height: 12, hasEOL };
}

describe('joinPdfTextItems', () => {
  const rows: Array<{ what: string; items: PdfTextItem[]; expected: string }> = [
    { what: 'nothing', items: [], expected: '' },
    { what: 'touching items on one line join without a space (a word drawn in pieces)', items: [item('$10', 50, 700, 20), item(',000', 70, 700, 24)], expected: '$10,000' },
    { what: 'a visible gap is a space', items: [item('up to', 50, 700, 30), item('$10,000', 84, 700, 40)], expected: 'up to $10,000' },
    { what: 'a gap under the threshold is no space (kerning)', items: [item('gra', 50, 700, 18), item('nts', 69, 700, 18)], expected: 'grants' },
    { what: 'a baseline moved by a line is a line break', items: [item('grants of up to', 50, 700, 80), item('$10,000', 50, 684, 40)], expected: 'grants of up to\n$10,000' },
    { what: 'a superscript shift under half the font size stays on the line', items: [item('Note', 50, 700, 24), item('1', 74, 704, 6)], expected: 'Note1' },
    { what: 'hasEOL breaks the line', items: [item('first', 50, 700, 30, true), item('second', 80, 700, 30)], expected: 'first\nsecond' },
    { what: 'empty items that carry only an EOL', items: [item('first', 50, 700, 30), item('', 80, 700, 0, true), item('second', 80, 700, 30)], expected: 'first\nsecond' },
    { what: 'an item starting left of the previous end on the same line is a new word', items: [item('right', 300, 700, 30), item('left', 50, 700, 20)], expected: 'right left' },
  ];
  for (const row of rows) it(row.what, () => assert.equal(joinPdfTextItems(row.items), row.expected));
});
