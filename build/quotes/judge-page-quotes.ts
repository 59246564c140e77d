/**
 * Judges one page against quotes: its text extracted once, then each quote `found` or `not-found` in it, or
 * every quote `inconclusive` when the page yields no text to judge. The weekly run (`hra links check`) and
 * `hra quotes check` both judge through here, so a saved page is judged as the run judged it.
 */
import { createHash } from 'node:crypto';
import type { FetchedPage, PageText } from './extract-page-text.ts';
import { preparePageText } from './prepare-page-text.ts';
import { quoteOccursIn } from './quote-occurs-in.ts';

/** The extraction a judgment runs on (extractPageText, with whatever worker pool the caller keeps). */
export type ExtractText = (page: FetchedPage) => Promise<PageText>;

/** What the text that was judged measures: evidence an auditor compares with their own extraction. */
export interface TextMeasures {
  /** Code points of the extracted text, before normalization. */
  textLength: number;
  /** Lowercase hex SHA-256 of the extracted text's UTF-8 bytes. */
  textSha256: string;
}

/** The page's judgment: why no quote can be judged on it, or the text and, per quote in order, whether it is found. */
export type PageJudgment =
  | { kind: 'inconclusive'; format: PageText['format']; reason: string }
  | { kind: 'judged'; format: 'html' | 'pdf' | 'text'; text: string; measures: TextMeasures; found: boolean[] };

/** Extracts `page`'s text once and looks for each of `quotes` in it (corpus/README.md, "Quote matching"). */
export async function judgePageQuotes(page: FetchedPage, quotes: readonly string[], extract: ExtractText): Promise<PageJudgment> {
  const text = await extract(page);
  if (text.kind === 'inconclusive') return { kind: 'inconclusive', format: text.format, reason: text.reason };
  // Normalized once for all the page's quotes: a long page's normalization costs more than a search in it.
  const prepared = preparePageText(text.text, text.format);
  return {
    kind: 'judged', format: text.format, text: text.text, measures: measureText(text.text),
    found: quotes.map((quote) => quoteOccursIn(quote, prepared)),
  };
}

function measureText(text: string): TextMeasures {
  return { textLength: codePoints(text), textSha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count += 1; // a low surrogate ends a pair already counted
  }
  return count;
}
