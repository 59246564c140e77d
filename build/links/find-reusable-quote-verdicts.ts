/**
 * Which earlier quote verdicts a run may carry forward instead of extracting (docs/decisions.md, "A verdict
 * reused when its bytes repeat"): per review, quote and cited URL, the latest conclusive verdict on each
 * payload digest, under the extractor judging today.
 */
import type { QuoteCheck } from '../corpus/corpus-types.ts';

/** The review a due check is of: its record, date and quote digest (select-quote-targets.ts's QuoteTask has them). */
export type ReviewedQuote = Pick<QuoteCheck, 'city' | 'programId' | 'reviewedAt' | 'quoteSha256'>;

/** What today's fetch gave, as a reused verdict must match it. */
export interface FetchedPageIdentity {
  payloadSha256: string;
  /** The final response's Content-Type: the same bytes under another type are read another way. */
  contentType: string | null;
  finalUrl: string | null;
}

/** The lookup a run asks, per due task. */
export interface ReusableQuoteVerdicts {
  /** The line whose verdict `task` may carry forward on `url` today, or undefined (then the page is judged). */
  find(task: ReviewedQuote, url: string, page: FetchedPageIdentity): QuoteCheck | undefined;
}

type Archived = QuoteCheck & { warcRecordId: string; payloadSha256: string };

/**
 * Indexes `checks` (file order) for reuse under `extractorVersion`. Per fetch (the same task, URL, date and
 * record) only its last re-derivation speaks, as in mechanical-quote-verdict.ts; of the lines left, the latest
 * on a digest wins, and it is reusable only when it is conclusive and was judged by `extractorVersion`.
 */
export function findReusableQuoteVerdicts(checks: readonly QuoteCheck[], extractorVersion: string): ReusableQuoteVerdicts {
  const fetchKey = (line: Archived) => JSON.stringify([line.city, line.programId, line.reviewedAt, line.quoteSha256, line.url, line.checkedAt, line.warcRecordId]);
  const lastRederived = new Map<string, Archived>();
  const archived = checks.filter((line): line is Archived => line.warcRecordId !== undefined && line.payloadSha256 !== undefined);
  for (const line of archived) if (line.rederived !== undefined) lastRederived.set(fetchKey(line), line);
  // Latest line per task, URL and digest: later dates win, and on one date the later line.
  const latest = new Map<string, Archived>();
  for (const line of archived) {
    const replacement = lastRederived.get(fetchKey(line));
    if (replacement !== undefined && replacement !== line) continue;
    const key = digestKey(line, line.url, line.payloadSha256);
    const held = latest.get(key);
    if (held === undefined || line.checkedAt >= held.checkedAt) latest.set(key, line);
  }
  const reusable = new Map<string, Archived>();
  for (const [key, line] of latest) if (line.outcome !== 'inconclusive' && line.extractor === extractorVersion) reusable.set(key, line);
  latest.clear();
  return {
    find(task, url, page) {
      const line = reusable.get(digestKey(task, url, page.payloadSha256));
      if (line === undefined || line.contentType !== page.contentType || line.finalUrl !== page.finalUrl) return undefined;
      return line;
    },
  };
}

/** The key of a verdict on one payload: the review (date and quote digest) of a record, the cited URL, the bytes. */
function digestKey(task: ReviewedQuote, url: string, payloadSha256: string): string {
  return JSON.stringify([task.city, task.programId, task.reviewedAt, task.quoteSha256, url, payloadSha256]);
}
