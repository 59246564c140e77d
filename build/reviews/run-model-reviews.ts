/**
 * `hra reviews run`'s work: for each due record, its archived page, the visible text and passages, one model
 * call, the exchange archived, the answer judged, and only then (the exchange indexed) the review line
 * appended. A killed run loses nothing: what it appended holds, and the next run finds the rest still due.
 */
import type { ArchiveWriter } from '../archive/open-archive-writer.ts';
import type { LinkCheck, ProgramRow, SourceReview } from '../corpus/corpus-types.ts';
import type { ExtractText } from '../links/check-quotes.ts';
import { createLimiter } from '../links/create-limiter.ts';
import { archivedPageForRecord, type ResponseReader } from './archived-page-for-record.ts';
import type { ModelCall } from './call-review-model.ts';
import type { DueReview } from './find-due-reviews.ts';
import { judgeReviewAnswer, type RejectionReason, type TokenUsage } from './judge-review-answer.ts';
import { pageVisibleText, type ExtractVisibleText } from './page-visible-text.ts';
import { PROMPT_VERSION, reviewPrompt, type PromptMessage } from './review-prompt.ts';
import { selectPassages } from './select-passages.ts';

/** What became of one record. */
export type RecordOutcome =
  | { kind: 'reviewed'; line: SourceReview; usage: TokenUsage | undefined; attempts: number }
  | { kind: 'rejected'; reason: RejectionReason; detail: string; usage: TokenUsage | undefined; archivedAs: string }
  | { kind: 'needs-links-check'; detail: string }
  | { kind: 'no-text'; detail: string }
  | { kind: 'endpoint-failure'; detail: string }
  | { kind: 'planned'; promptChars: number };

/** One record's outcome, named. */
export interface ReviewedRecordOutcome {
  city: string;
  programId: string;
  outcome: RecordOutcome;
}

/** What the run needs from outside. */
export interface ModelReviewRunOptions {
  targets: readonly DueReview[];
  /** The stored rows (after corrections) of the targets, by `city/programId`: name, agency, amount labels. */
  rows: ReadonlyMap<string, ProgramRow>;
  linkChecks: readonly LinkCheck[];
  archive: ResponseReader;
  /** Absent in a dry run, which calls nothing and appends nothing. */
  writer?: ArchiveWriter;
  extractText: ExtractVisibleText;
  extractQuotes: ExtractText;
  call?: (messages: readonly PromptMessage[]) => Promise<ModelCall>;
  /** The model and endpoint host the lines name. */
  reviewer: { model: string; endpointHost: string };
  /** The lines' `reviewedAt`, YYYY-MM-DD. */
  reviewedAt: string;
  concurrency: number;
  append?(line: SourceReview): void;
  onOutcome?(outcome: ReviewedRecordOutcome): void;
}

/** Reviews every target (see the file head); outcomes in target order. */
export async function runModelReviews(options: ModelReviewRunOptions): Promise<ReviewedRecordOutcome[]> {
  const limit = createLimiter(options.concurrency);
  const checksByUrl = new Map<string, LinkCheck[]>();
  for (const check of options.linkChecks) checksByUrl.set(check.url, [...(checksByUrl.get(check.url) ?? []), check]);
  return Promise.all(options.targets.map((target) => limit(async () => {
    const outcome = await reviewOne(target, checksByUrl.get(target.url) ?? [], options);
    const named = { city: target.city, programId: target.programId, outcome };
    options.onOutcome?.(named);
    return named;
  })));
}

async function reviewOne(target: DueReview, checks: readonly LinkCheck[], options: ModelReviewRunOptions): Promise<RecordOutcome> {
  const page = await archivedPageForRecord(target.url, checks, options.archive);
  if (page.kind === 'none') return { kind: 'needs-links-check', detail: page.reason };
  const text = await pageVisibleText(page.page, options.extractText);
  if (text.kind === 'none') return { kind: 'no-text', detail: `${page.warcRecordId}: ${text.reason}` };
  const row = options.rows.get(`${target.city}/${target.programId}`);
  const { passages } = selectPassages(text.text, target.name);
  const messages = reviewPrompt({
    city: target.city, programId: target.programId, name: target.name, agency: row?.source ?? '', maxAmount: target.maxAmount,
    maxAmountLabel: typeof row?.maxAmountLabel === 'string' ? row.maxAmountLabel : null, url: target.url,
  }, passages);
  if (options.writer === undefined || options.call === undefined) return { kind: 'planned', promptChars: messages.reduce((sum, m) => sum + m.content.length, 0) };
  const call = await options.call(messages);
  if (call.kind === 'failed') return { kind: 'endpoint-failure', detail: call.reason };
  // Archived before it is judged: a rejected answer is evidence of what the model said, too.
  const archived = await options.writer.writeExchange(call.exchange);
  const judgement = await judgeReviewAnswer(call.body, page.page, options.extractQuotes);
  if (judgement.kind === 'rejected') return { kind: 'rejected', reason: judgement.reason, detail: judgement.detail, usage: judgement.usage, archivedAs: archived.responseRecordId };
  const line: SourceReview = {
    city: target.city, programId: target.programId, reviewedAt: options.reviewedAt, ...judgement.verdict,
    reviewer: { kind: 'model', model: options.reviewer.model, endpointHost: options.reviewer.endpointHost, promptVersion: PROMPT_VERSION },
    warcRecordId: page.warcRecordId, payloadSha256: page.payloadSha256,
    exchange: { requestRecordId: archived.requestRecordId, responseRecordId: archived.responseRecordId },
  } as SourceReview;
  options.append?.(line);
  return { kind: 'reviewed', line, usage: judgement.usage, attempts: call.attempts };
}
