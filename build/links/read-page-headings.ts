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
