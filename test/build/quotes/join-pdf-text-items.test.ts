import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { joinPdfTextItems, type PdfTextItem } from '../../../build/quotes/join-pdf-text-items.ts';

/** An item of 12-point text at (x, y), `width` wide. */
function item(str: string, x: number, y: number, width: number, hasEOL = false): PdfTextItem {
  return { str, transform: [12, 0, 0, 12, x, y], width, height: 12, hasEOL };
}

/** An item of `size`-point text at (x, y), `width` wide. */
function sized(str: string, x: number, y: number, width: number, size: number, hasEOL = false): PdfTextItem {
  return { str, transform: [size, 0, 0, size, x, y], width, height: size, hasEOL };
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
    // A 7-point superscript raised 4 points on a 12-point line: more than half its own size, less than half the line's.
    { what: 'a raised ordinal stays attached to its number', items: [item('is after the 5', 50, 700, 70), sized('th', 120, 704, 6, 7), item('.', 126, 700, 3)], expected: 'is after the 5th.' },
    { what: 'a raised footnote digit after an amount is set apart', items: [item('up to $25,000', 50, 700, 70), sized('1', 120, 705, 4, 7), item(' in repairs', 124, 700, 60)], expected: 'up to $25,000 1 in repairs' },
    { what: 'a slightly raised footnote digit after an amount is set apart', items: [item('up to $25,000', 50, 700, 70), sized('1', 120, 703, 4, 7), item(' in repairs', 124, 700, 60)], expected: 'up to $25,000 1 in repairs' },
    { what: 'a raised letter after a digit is not set apart', items: [item('the 1', 50, 700, 30), sized('st', 80, 704, 6, 7)], expected: 'the 1st' },
    { what: 'a small-print line below is still a new line', items: [item('grants', 50, 700, 36), sized('terms apply', 50, 690, 40, 7)], expected: 'grants\nterms apply' },
    { what: 'a drop cap on the third line joins its word on the first', items: [sized('T', 50, 676, 22, 36), item('he federal government pays', 76, 700, 140), item('for roofs up to $5,000.', 76, 686, 120)], expected: 'The federal government pays\nfor roofs up to $5,000.' },
    { what: 'a raised initial on the first line joins its word', items: [sized('T', 50, 700, 15, 24), item('he city pays', 68, 700, 60)], expected: 'The city pays' },
    { what: 'a lone capital of the same size is a word of its own', items: [item('A', 50, 700, 8), item('grant', 62, 700, 30)], expected: 'A grant' },
    { what: 'a large capital before a capitalized word stays apart', items: [sized('A', 50, 700, 15, 24), item('Grant', 68, 700, 30)], expected: 'A Grant' },
    { what: 'a line break inside Japanese text is no space', items: [item('日本の住宅', 50, 700, 60, true), item('改修費用', 50, 684, 48)], expected: '日本の住宅改修費用' },
    { what: 'a line break after CJK punctuation is no space', items: [item('補助金、', 50, 700, 48, true), item('最大', 50, 684, 24)], expected: '補助金、最大' },
    { what: 'a line break between Latin and CJK text stays', items: [item('Tokyo', 50, 700, 30, true), item('東京', 50, 684, 24)], expected: 'Tokyo\n東京' },
    { what: 'a line break inside Korean text stays (Korean spaces its words)', items: [item('주택', 50, 700, 24, true), item('수리', 50, 684, 24)], expected: '주택\n수리' },
  ];
  for (const row of rows) it(row.what, () => assert.equal(joinPdfTextItems(row.items), row.expected));
});
