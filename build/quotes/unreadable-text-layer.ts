/**
 * Which pages of a PDF's text layer are too broken to settle a quote's absence (issue 31 item 6): a broken
 * ToUnicode map gives C0 control characters or U+FFFD where letters are printed (`signi\u001Cer`), and a
 * quote typed from the rendered page is then missing from text that does hold it.
 */

/** A page is unreadable when at least this share of its non-white-space characters are unreadable. */
export const UNREADABLE_PAGE_SHARE = 1 / 500;

/** Whether the UTF-16 unit `code` is unreadable: a C0 control other than U+0009-U+000D, or U+FFFD. */
function isUnreadable(code: number): boolean {
  return (code < 0x20 && (code < 0x09 || code > 0x0d)) || code === 0xfffd;
}

function isWhiteSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0;
}

/**
 * A font that maps the space to a printable glyph (`#`; also `*`, `~`, `^`) draws `Apply#at#City#Hall`: a run of at least
 * SPACE_AS_MARK_RUNS words joined by one mark and no white space is no text a person reads (issue 40
 * item 8), while `Form #1040` and `Unit #4` are.
 */
export const SPACE_AS_MARK_RUNS = 4;
const SPACE_AS_MARK = new RegExp(String.raw`(?:\p{L}+[#*~^]){${SPACE_AS_MARK_RUNS - 1},}\p{L}+`, 'u');

/** How many of the `pages` (one string each, as read) have text, and how many of those are unreadable. */
export interface UnreadablePages {
  readonly withText: number;
  readonly unreadable: number;
}

/** Whether some word run of `page` has its spaces drawn as one repeated mark (SPACE_AS_MARK). */
function spacesAsMarks(page: string): boolean {
  for (const match of page.matchAll(/\S{8,}/g)) {
    const run = SPACE_AS_MARK.exec(match[0]);
    if (run === null) continue;
    // One mark throughout: `a#b*c` is not a font's space.
    const marks = new Set(run[0].replace(/\p{L}/gu, ''));
    if (marks.size === 1) return true;
  }
  return false;
}

/**
 * Counts the unreadable pages among `pages`: a page is unreadable when at least UNREADABLE_PAGE_SHARE of its
 * non-white-space characters are, or when a run of words has its spaces drawn as a mark (`Apply#at#City#Hall`).
 * The share is low on purpose: a broken ligature alone (`fi` as U+001C) is one character in a few hundred.
 */
export function countUnreadablePages(pages: readonly string[]): UnreadablePages {
  let withText = 0;
  let unreadable = 0;
  for (const page of pages) {
    let visible = 0;
    let broken = 0;
    for (let i = 0; i < page.length; i += 1) {
      const code = page.charCodeAt(i);
      if (isWhiteSpace(code)) continue;
      visible += 1;
      if (isUnreadable(code)) broken += 1;
    }
    if (visible === 0) continue;
    withText += 1;
    if (broken >= visible * UNREADABLE_PAGE_SHARE || spacesAsMarks(page)) unreadable += 1;
  }
  return { withText, unreadable };
}
