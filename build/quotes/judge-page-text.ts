/**
 * Judges quotes against a page's extracted text: what a quote check records of the page (its length and
 * digest) and, per quote, whether it occurs; the page's stated amounts when one does not. Pure, so it runs
 * where the text was extracted (an extraction child) and a multi-MiB text is never normalized on the run's
 * own thread.
 */
import { createHash } from 'node:crypto';
import type { PageText } from './extract-page-text.ts';
import { findDollarAmounts } from './find-dollar-amounts.ts';
import { preparePageText } from './prepare-page-text.ts';
import { quoteFailsAtUnmappedGlyphs } from './quote-fails-at-unmapped-glyphs.ts';
import { quoteOccursIn } from './quote-occurs-in.ts';
import { quoteOccursInOcrLayer } from './quote-occurs-in-ocr-layer.ts';

/** Why a quote absent from a page with an OCR layer is inconclusive (issue 40 item 1). */
export const OCR_LAYER_REASON = 'OCR text layer';
/** Why a quote that fails only at glyphs with no Unicode mapping is inconclusive (issue 40 item 2). */
export const UNMAPPED_GLYPHS_REASON = 'pdf text layer has glyphs with no unicode mapping';

/** Most distinct dollar amounts a `not-found` check keeps, so one price-list page cannot bloat the evidence. */
export const STATED_AMOUNTS_CAP = 50;

/** One dollar amount stated on a page, as written and as a number. */
export interface StatedAmount {
  text: string;
  value: number;
}

/** The judgement of some quotes against one page's text. */
export interface PageJudgement {
  kind: 'judged';
  /** Code points of the text, not normalized. */
  textLength: number;
  /** SHA-256 of the text's UTF-8, hex. */
  textSha256: string;
  /** Per quote, in order: whether it occurs (quoteOccursIn). */
  found: boolean[];
  /** Why a quote not found is inconclusive rather than `not-found` (PageText's `unreadable`). */
  unreadable?: string;
  /**
   * Per quote, in order, when some quote not found is inconclusive for a reason of its own: that reason
   * (OCR_LAYER_REASON, UNMAPPED_GLYPHS_REASON), else null. `unreadable`, when set, comes first.
   */
  inconclusive?: Array<string | null>;
  /** The page's distinct amounts in order of first appearance (at most STATED_AMOUNTS_CAP); only when a quote is missing. */
  statedAmounts?: StatedAmount[];
}

/**
 * Judges each of `quotes` against the extracted `page` text, prepared once for all of them with the rules of
 * its format (corpus/README.md, "Quote matching").
 */
export function judgePageText(page: Extract<PageText, { kind: 'text' }>, quotes: readonly string[]): PageJudgement {
  const { text } = page;
  // Normalized once for all the page's quotes: a long page's normalization costs more than a search in it.
  const prepared = preparePageText(text, page.format);
  const ocrPages = ocrPagesOf(page);
  const found = quotes.map((quote) => quoteOccursIn(quote, prepared) || ocrPages.some((ocrPage) => quoteOccursInOcrLayer(quote, ocrPage)));
  const judgement: PageJudgement = { kind: 'judged', textLength: codePoints(text), textSha256: createHash('sha256').update(text, 'utf8').digest('hex'), found };
  if (page.unreadable !== undefined) judgement.unreadable = page.unreadable;
  const inconclusive = quotes.map((quote, index) => {
    if (found[index] === true) return null;
    // The OCR layer's errors are unbounded in kind; past its tolerance an absent quote proves nothing.
    if (ocrPages.length > 0) return OCR_LAYER_REASON;
    if (page.format === 'pdf' && quoteFailsAtUnmappedGlyphs(quote, prepared.text)) return UNMAPPED_GLYPHS_REASON;
    return null;
  });
  if (inconclusive.some((reason) => reason !== null)) judgement.inconclusive = inconclusive;
  if (found.includes(false)) judgement.statedAmounts = distinctAmounts(text);
  return judgement;
}

/** The text of each page of `page` that is an OCR layer (PageText's `ocrPages`, pages joined by `\n\f\n`). */
function ocrPagesOf(page: Extract<PageText, { kind: 'text' }>): string[] {
  if (page.ocrPages === undefined || page.ocrPages.length === 0) return [];
  const pages = page.text.split('\n\f\n');
  return page.ocrPages.flatMap((index) => (pages[index] === undefined ? [] : [pages[index]!]));
}

function distinctAmounts(text: string): StatedAmount[] {
  const seen = new Set<string>();
  const amounts: StatedAmount[] = [];
  for (const amount of findDollarAmounts(text)) {
    const key = `${amount.value} ${amount.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    amounts.push({ text: amount.text, value: amount.value });
    if (amounts.length === STATED_AMOUNTS_CAP) break;
  }
  return amounts;
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count += 1; // a low surrogate ends a pair already counted
  }
  return count;
}
