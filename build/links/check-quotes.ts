/**
 * Turns one link attempt's fetched page into the quote checks of the reviews that cite it: the outcome
 * table of corpus/README.md, "Quote checks".
 */
import { createHash } from 'node:crypto';
import type { QuoteCheck } from '../corpus/corpus-types.ts';
import type { FetchedPage, PageText } from '../quotes/extract-page-text.ts';
import { findDollarAmounts } from '../quotes/find-dollar-amounts.ts';
import { preparePageText } from '../quotes/prepare-page-text.ts';
import { quoteOccursIn } from '../quotes/quote-occurs-in.ts';
import type { LinkVerdict } from './link-check-types.ts';
import type { QuoteTask } from './select-quote-targets.ts';

/** Most distinct dollar amounts a `not-found` check keeps, so one price-list page cannot bloat the evidence. */
export const STATED_AMOUNTS_CAP = 50;

/** What the quote checks need beyond the page: the extraction (HTML parse, pdf.js worker). */
export type ExtractText = (page: FetchedPage) => Promise<PageText>;

/**
 * One check per task, all from the same page. Only a `live` attempt with a whole (or capped) 2xx body is
 * searched; anything else is `inconclusive`, because a quote cannot be judged on a page that was not read.
 */
export async function checkQuotes(
  url: string, tasks: readonly QuoteTask[], verdict: LinkVerdict, checkedAt: string, extract: ExtractText,
): Promise<QuoteCheck[]> {
  const contentType = single(verdict.contentType);
  const base = (task: QuoteTask) => ({
    city: task.city, programId: task.programId, reviewedAt: task.reviewedAt, quoteSha256: task.quoteSha256,
    url, finalUrl: verdict.finalUrl ?? null, checkedAt,
  });
  const inconclusive = (reason: string) => tasks.map((task): QuoteCheck => ({ ...base(task), outcome: 'inconclusive', reason, contentType }));
  if (verdict.outcome !== 'live') return inconclusive(`link ${verdict.outcome}: ${verdict.reason}`);
  const page = verdict.page;
  if (page === undefined) return inconclusive('no page body was read');
  if (page.kind === 'broken') return inconclusive(page.reason);
  const text = await extract({ body: page.bytes, contentType, complete: page.complete });
  if (text.kind === 'inconclusive') return inconclusive(text.reason);
  const measured = { textLength: codePoints(text.text), textSha256: createHash('sha256').update(text.text, 'utf8').digest('hex') };
  // Normalized once for all the page's quotes: a long page's normalization costs more than a search in it.
  const prepared = preparePageText(text.text, text.format);
  let stated: QuoteCheck['statedAmounts'];
  return tasks.map((task): QuoteCheck => {
    if (quoteOccursIn(task.quote, prepared)) return { ...base(task), outcome: 'found', contentType, ...measured };
    stated ??= distinctAmounts(text.text);
    return { ...base(task), outcome: 'not-found', contentType, ...measured, statedAmounts: stated };
  });
}

function distinctAmounts(text: string): NonNullable<QuoteCheck['statedAmounts']> {
  const seen = new Set<string>();
  const amounts: NonNullable<QuoteCheck['statedAmounts']> = [];
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

function single(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
