/**
 * Turns one link attempt's fetched page into the quote checks of the reviews that cite it: the outcome
 * table of corpus/README.md, "Quote checks".
 */
import type { QuoteCheck } from '../corpus/corpus-types.ts';
import { findDollarAmounts } from '../quotes/find-dollar-amounts.ts';
import { judgePageQuotes, type ExtractText } from '../quotes/judge-page-quotes.ts';
import type { LinkVerdict } from './link-check-types.ts';
import type { QuoteTask } from './select-quote-targets.ts';

/** Most distinct dollar amounts a `not-found` check keeps, so one price-list page cannot bloat the evidence. */
export const STATED_AMOUNTS_CAP = 50;

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
  const judgment = await judgePageQuotes({ body: page.bytes, contentType, complete: page.complete }, tasks.map((task) => task.quote), extract);
  if (judgment.kind === 'inconclusive') return inconclusive(judgment.reason);
  const { text, measures, found } = judgment;
  let stated: QuoteCheck['statedAmounts'];
  return tasks.map((task, index): QuoteCheck => {
    if (found[index] === true) return { ...base(task), outcome: 'found', contentType, ...measures };
    stated ??= distinctAmounts(text);
    return { ...base(task), outcome: 'not-found', contentType, ...measures, statedAmounts: stated };
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

function single(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
