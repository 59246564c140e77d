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

/** How many of the `pages` (one string each, as read) have text, and how many of those are unreadable. */
export interface UnreadablePages {
  readonly withText: number;
  readonly unreadable: number;
}

/**
 * Counts the unreadable pages among `pages`: a page is unreadable when at least UNREADABLE_PAGE_SHARE of its
 * non-white-space characters are. The share is low on purpose: a broken ligature alone (`fi` as U+001C) is
 * one character in a few hundred.
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
    if (broken >= visible * UNREADABLE_PAGE_SHARE) unreadable += 1;
  }
  return { withText, unreadable };
}
