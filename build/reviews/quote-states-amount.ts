/**
 * The acceptance test of a proposed amount quote, shared by the model reviewer, a person's worksheet and
 * the replay: the quote is in the page's visible text by the quote check's own matcher (judge-page-text.ts,
 * run where the page is extracted), and the quote states the amount by the derivation's own reading of a
 * figure (find-quoted-amount.ts). Nothing looser.
 */
import type { ExtractText } from '../links/check-quotes.ts';
import { findQuotedAmount } from '../derive/find-quoted-amount.ts';
import type { FetchedPage } from '../quotes/extract-page-text.ts';
import { judgePageText } from '../quotes/judge-page-text.ts';

/** What the test found: whether the quote is on the page, and whether it states the amount. */
export type QuoteAcceptance =
  | { kind: 'judged'; found: boolean; statesAmount: boolean; textSha256: string; textLength: number }
  /** The page could not settle it (no text, over a cap, an extraction limit): nothing is accepted. */
  | { kind: 'inconclusive'; reason: string };

/**
 * Whether `quote` is found in `page`'s visible text and states `amount` (false when `amount` is null).
 * `extract` is the quote check's extraction (a PageTextExtractor's `extract`), which judges in its child.
 */
export async function quoteStatesAmount(page: FetchedPage, quote: string, amount: number | null, extract: ExtractText): Promise<QuoteAcceptance> {
  const answer = await extract(page, [quote]);
  if (answer.kind === 'inconclusive') return { kind: 'inconclusive', reason: answer.reason };
  const judged = answer.kind === 'judged' ? answer : judgePageText(answer, [quote]);
  return {
    kind: 'judged',
    found: judged.found[0] === true,
    statesAmount: amount !== null && findQuotedAmount(quote, amount) !== undefined,
    textSha256: judged.textSha256,
    textLength: judged.textLength,
  };
}
