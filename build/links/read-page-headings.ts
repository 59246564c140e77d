/** Reads a page's title and main heading out of the start of its HTML, for the soft-404 and bot-wall rules. */

/** The texts the outcome rules look at, whitespace collapsed; empty when the element is absent. */
export interface PageHeadings {
  title: string;
  /** The first `<h1>`, its inner tags removed. */
  heading: string;
}

// Only the first of each element counts, and the input is already capped by the body reader, so these
// lazy scans stay linear in the prefix.
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
const HEADING = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i;
const TAG = /<[^>]*>/g;
const ENTITY = /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Past the first `</h1`, what its end tag may still hold (white space, then `>`) for a prefix to be tried. */
const HEADING_END_ROOM = 64;

/**
 * The decoded start of the HTML body `bytes` (at most `cap` bytes of it) that readPageHeadings reads as it
 * would read the whole: through the first `</h1` when the title and the h1 both close by then (a first match
 * found in a prefix is the first match of the whole page), else all of it. A page read whole for its quotes
 * is a median 212 KB whose first `</h1` lies at 33 KB; decoding all of it was 3-4% of a links check's main thread.
 */
export function headingsText(bytes: Uint8Array, cap: number): string {
  const end = Math.min(bytes.byteLength, cap);
  const close = Buffer.from(bytes.buffer, bytes.byteOffset, end).indexOf('</h1', 0, 'latin1');
  if (close >= 0 && close + HEADING_END_ROOM < end) {
    // Streaming, so a character cut at the end is held back and the text is a prefix of the whole one's.
    const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, close + HEADING_END_ROOM), { stream: true });
    if (TITLE.test(prefix) && HEADING.test(prefix)) return prefix;
  }
  return new TextDecoder('utf-8').decode(bytes.subarray(0, end));
}

/** Extracts the title and first h1 of `html` (a prefix of the page is enough). */
export function readPageHeadings(html: string): PageHeadings {
  return { title: textOf(TITLE.exec(html)?.[1]), heading: textOf(HEADING.exec(html)?.[1]) };
}

function textOf(inner: string | undefined): string {
  if (inner === undefined) return '';
  return inner.replace(TAG, ' ').replace(ENTITY, decodeEntity).replace(/\s+/g, ' ').trim();
}

function decodeEntity(whole: string, name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#')) {
    const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return NAMED[lower] ?? whole;
}
