/**
 * The visible text a reviewer is shown: exactly what the quote check reads, made by the same extraction
 * children under the same limits (create-page-text-extractor.ts). Hidden text (styled away, off-screen)
 * is already left out there (html-visible-text.ts), so a model is never offered it.
 */
import type { FetchedPage, PageText } from '../quotes/extract-page-text.ts';

/** The extraction a review uses: a PageTextExtractor's `extract` without quotes. */
export type ExtractVisibleText = (page: FetchedPage) => Promise<PageText>;

/** A page's visible text, or why there is none to review (a PDF without a text layer, an over-cap page). */
export type PageVisibleText =
  | { kind: 'text'; format: 'html' | 'pdf' | 'text'; text: string }
  | { kind: 'none'; reason: string };

/**
 * The visible text of `page`. A PDF with unreadable pages still offers the text it has: a quote found in it
 * is found all the same (extract-page-text.ts).
 */
export async function pageVisibleText(page: FetchedPage, extract: ExtractVisibleText): Promise<PageVisibleText> {
  const text = await extract(page);
  if (text.kind === 'inconclusive') return { kind: 'none', reason: text.reason };
  return { kind: 'text', format: text.format, text: text.text };
}
