import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countUnreadablePages, UNREADABLE_PAGE_SHARE } from '../../../build/quotes/unreadable-text-layer.ts';

/** A page of `visible` non-white-space characters, `broken` of them `char`, in words of five. */
function page(visible: number, broken: number, char = '\u001C'): string {
  const chars = Array.from({ length: visible }, (_, i) => (i < broken ? char : 'a'));
  return chars.map((c, i) => (i % 5 === 4 ? `${c} ` : c)).join('');
}

describe('countUnreadablePages', () => {
  it('the threshold is 1 in 500 characters of a page', () => {
    assert.equal(UNREADABLE_PAGE_SHARE, 1 / 500);
  });

  const rows: Array<{ what: string; pages: string[]; withText: number; unreadable: number }> = [
    { what: 'no pages', pages: [], withText: 0, unreadable: 0 },
    { what: 'pages without text', pages: ['', ' \n '], withText: 0, unreadable: 0 },
    { what: 'readable text with line breaks, tabs and form feeds', pages: ['Up to $10,000\n\tfor roofs\f'], withText: 1, unreadable: 0 },
    { what: 'a broken ligature in a short page (signi\\u001Cer)', pages: ['The signi\u001Cer of the grant'], withText: 1, unreadable: 1 },
    { what: 'U+FFFD for every letter', pages: ['\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD'], withText: 1, unreadable: 1 },
    { what: 'a page at exactly 1 in 500', pages: [page(1000, 2)], withText: 1, unreadable: 1 },
    { what: 'a page just under 1 in 500', pages: [page(1000, 1)], withText: 1, unreadable: 0 },
    { what: 'two broken pages of three', pages: [page(100, 5), page(100, 0), page(100, 5, '\u0001')], withText: 3, unreadable: 2 },
    { what: 'one broken page of three', pages: [page(100, 5), page(100, 0), page(100, 0)], withText: 3, unreadable: 1 },
    { what: 'pages without text do not count', pages: [page(100, 5), '', ' ', page(100, 0), page(100, 0)], withText: 3, unreadable: 1 },
    { what: 'a header whose spaces the font draws as #', pages: ['Home#Repair#Program#Guidelines\nGrants up to $5,000'], withText: 1, unreadable: 1 },
    { what: 'spaces drawn as * in a run of words', pages: ['Apply*at*City*Hall today'], withText: 1, unreadable: 1 },
    { what: 'a form number and a unit number are text', pages: ['File Form #1040 for Unit #4, Apt#5 or a #hashtag'], withText: 1, unreadable: 0 },
    { what: 'three words joined by # are not yet a run', pages: ['Repair#Grant#Fund'], withText: 1, unreadable: 0 },
    { what: 'mixed marks are not a font\'s space', pages: ['snake*case*and#more#words'], withText: 1, unreadable: 0 },
    { what: 'identifiers joined by underscores are text', pages: ['field applicant_first_name_line here'], withText: 1, unreadable: 0 },
    { what: 'DEL and C1 controls are not counted', pages: ['\u007F\u0085\u0090 ab'], withText: 1, unreadable: 0 },
  ];
  for (const row of rows) {
    it(`${row.what}: ${row.unreadable} unreadable of ${row.withText}`, () => {
      assert.deepEqual(countUnreadablePages(row.pages), { withText: row.withText, unreadable: row.unreadable });
    });
  }
});
