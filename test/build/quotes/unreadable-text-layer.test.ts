import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTextLayerUnreadable, UNREADABLE_DOCUMENT_SHARE, UNREADABLE_PAGE_SHARE } from '../../../build/quotes/unreadable-text-layer.ts';

/** A page of `visible` non-white-space characters, `broken` of them `char`, in words of five. */
function page(visible: number, broken: number, char = '\u001C'): string {
  const chars = Array.from({ length: visible }, (_, i) => (i < broken ? char : 'a'));
  return chars.map((c, i) => (i % 5 === 4 ? `${c} ` : c)).join('');
}

describe('isTextLayerUnreadable', () => {
  it('the thresholds are 1 in 500 characters of a page and half the pages', () => {
    assert.equal(UNREADABLE_PAGE_SHARE, 1 / 500);
    assert.equal(UNREADABLE_DOCUMENT_SHARE, 1 / 2);
  });

  const rows: Array<{ what: string; pages: string[]; unreadable: boolean }> = [
    { what: 'no pages', pages: [], unreadable: false },
    { what: 'pages without text', pages: ['', ' \n '], unreadable: false },
    { what: 'readable text with line breaks, tabs and form feeds', pages: ['Up to $10,000\n\tfor roofs\f'], unreadable: false },
    { what: 'a broken ligature in a short page (signi\\u001Cer)', pages: ['The signi\u001Cer of the grant'], unreadable: true },
    { what: 'U+FFFD for every letter', pages: ['\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD'], unreadable: true },
    { what: 'a page at exactly 1 in 500', pages: [page(1000, 2)], unreadable: true },
    { what: 'a page just under 1 in 500', pages: [page(1000, 1)], unreadable: false },
    { what: 'two broken pages of three', pages: [page(100, 5), page(100, 0), page(100, 5, '\u0001')], unreadable: true },
    { what: 'one broken page of two', pages: [page(100, 5), page(100, 0)], unreadable: true },
    { what: 'one broken page of three', pages: [page(100, 5), page(100, 0), page(100, 0)], unreadable: false },
    { what: 'pages without text do not count', pages: [page(100, 5), '', ' ', page(100, 0), page(100, 0)], unreadable: false },
    { what: 'DEL and C1 controls are not counted', pages: ['\u007F\u0085\u0090 ab'], unreadable: false },
  ];
  for (const row of rows) it(`${row.what}: ${row.unreadable ? 'unreadable' : 'readable'}`, () => assert.equal(isTextLayerUnreadable(row.pages), row.unreadable));
});
