/**
 * Turns one link attempt's fetched page into the quote checks of the reviews that cite it: the outcome
 * table of corpus/README.md, "Quote checks".
 */
import type { QuoteCheck } from '../corpus/corpus-types.ts';
import type { FetchedPage, PageText } from '../quotes/extract-page-text.ts';
import { EXTRACTOR_VERSION } from '../quotes/extractor-version.ts';
import { judgePageText, type PageJudgement } from '../quotes/judge-page-text.ts';
import type { ReusableQuoteVerdicts } from './find-reusable-quote-verdicts.ts';
import type { LinkVerdict } from './link-check-types.ts';
import type { QuoteTask } from './select-quote-targets.ts';

/**
 * What the quote checks need beyond the page: its text (HTML parse, pdf.js), or, from an extractor that
 * judges where it extracts (create-page-text-extractor.ts), the judgement of `quotes` against it.
 */
export type ExtractText = (page: FetchedPage, quotes: readonly string[]) => Promise<PageText | PageJudgement>;

/**
 * One check per task, all from the same page. Only a `live` attempt with a whole (or capped) 2xx body is
 * searched; anything else is `inconclusive`, because a quote cannot be judged on a page that was not read.
 * With `reuse`, a task whose earlier conclusive verdict was judged on the same archived payload (and type and
 * final URL) under this EXTRACTOR_VERSION carries that verdict forward, naming the line it reuses; the page
 * is extracted only for the tasks left, and not at all when none are.
 */
export async function checkQuotes(
  url: string, tasks: readonly QuoteTask[], verdict: LinkVerdict, checkedAt: string, extract: ExtractText, reuse?: ReusableQuoteVerdicts,
): Promise<QuoteCheck[]> {
  const reused = reusedVerdicts(url, tasks, verdict, checkedAt, reuse);
  const judged = tasks.filter((_, index) => reused[index] === undefined);
  const checks = judged.length === 0 ? [] : await judgeQuotes(url, judged, verdict, checkedAt, extract);
  // The archived page the checks rest on, and the extraction that judged it (issue 32), last on each line.
  const archived = verdict.archived === undefined ? {} : { warcRecordId: verdict.archived.responseRecordId, payloadSha256: verdict.archived.payloadSha256 };
  let next = 0;
  return tasks.map((_, index) => reused[index] ?? { ...checks[next++]!, ...archived, extractor: EXTRACTOR_VERSION });
}

/** Per task, the carried-forward line, or undefined where the page must be judged. */
function reusedVerdicts(
  url: string, tasks: readonly QuoteTask[], verdict: LinkVerdict, checkedAt: string, reuse: ReusableQuoteVerdicts | undefined,
): Array<QuoteCheck | undefined> {
  const { archived, page } = verdict;
  // Only bytes that were read whole enough to judge, and archived, so the line can name them.
  if (reuse === undefined || archived === undefined || verdict.outcome !== 'live' || page?.kind !== 'read') return tasks.map(() => undefined);
  const identity = { payloadSha256: archived.payloadSha256, contentType: single(verdict.contentType), finalUrl: verdict.finalUrl ?? null };
  return tasks.map((task): QuoteCheck | undefined => {
    const earlier = reuse.find(task, url, identity);
    if (earlier === undefined) return undefined;
    const measures = earlier.outcome === 'found'
      ? { outcome: 'found' as const, contentType: identity.contentType, textLength: earlier.textLength, textSha256: earlier.textSha256 }
      : { outcome: 'not-found' as const, contentType: identity.contentType, textLength: earlier.textLength, textSha256: earlier.textSha256, statedAmounts: earlier.statedAmounts ?? [] };
    return {
      city: task.city, programId: task.programId, reviewedAt: task.reviewedAt, quoteSha256: task.quoteSha256,
      url, finalUrl: identity.finalUrl, checkedAt, ...measures,
      warcRecordId: archived.responseRecordId, payloadSha256: archived.payloadSha256, extractor: EXTRACTOR_VERSION,
      reuses: { checkedAt: earlier.checkedAt, warcRecordId: earlier.warcRecordId! },
    };
  });
}

async function judgeQuotes(
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
  const quotes = tasks.map((task) => task.quote);
  const extracted = await extract({ body: page.bytes, contentType, complete: page.complete }, quotes);
  if (extracted.kind === 'inconclusive') return inconclusive(extracted.reason);
  const { textLength, textSha256, found, statedAmounts, unreadable, inconclusive: unsettled } = extracted.kind === 'judged' ? extracted : judgePageText(extracted, quotes);
  return tasks.map((task, index): QuoteCheck => {
    if (found[index] === true) return { ...base(task), outcome: 'found', contentType, textLength, textSha256 };
    // Absent from a text with pages that could not be read, an OCR layer or unmapped glyphs: it may be there.
    const reason = unreadable ?? unsettled?.[index] ?? undefined;
    if (reason !== undefined) return { ...base(task), outcome: 'inconclusive', reason, contentType };
    return { ...base(task), outcome: 'not-found', contentType, textLength, textSha256, statedAmounts: statedAmounts ?? [] };
  });
}

function single(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
