/**
 * Re-derives the archived reviews of a corpus for `hra quotes replay`: a model's review from its archived
 * answer and page, by the run's own judgement (judge-review-answer.ts), never by calling the model again;
 * a person's amount review by finding its quote again in the archived page it names. The same line, or a
 * difference naming the record.
 */
import type { ArchivedResponse } from '../archive/archived-response.ts';
import { readArchivedPage } from '../archive/read-archived-page.ts';
import { sha256Hex } from '../archive/payload-digest.ts';
import type { SourceReview } from '../corpus/corpus-types.ts';
import type { ExtractText } from '../links/check-quotes.ts';
import type { FetchedPage } from '../quotes/extract-page-text.ts';
import { judgeReviewAnswer } from './judge-review-answer.ts';
import { quoteStatesAmount } from './quote-states-amount.ts';

/** What the re-derivation reads. */
export interface RederiveReviewsOptions {
  reviews: readonly SourceReview[];
  since?: string;
  readResponse(recordId: string): Promise<ArchivedResponse>;
  isDigestFailure(error: unknown): error is Error & { file?: string; recordId?: string };
  extract: ExtractText;
}

/** A review the archive does not give again. */
export interface ReviewDifference {
  kind: 'review';
  recordId: string;
  file: string | undefined;
  subject: string;
  recorded: string;
  rederived: string;
}

/** What the re-derivation found. */
export interface ReviewReplay {
  checked: number;
  matched: number;
  differences: ReviewDifference[];
}

/** Re-derives every archived review dated on or after `since` (see the file head). */
export async function rederiveReviews(options: RederiveReviewsOptions): Promise<ReviewReplay> {
  const report: ReviewReplay = { checked: 0, matched: 0, differences: [] };
  for (const review of options.reviews) {
    if (options.since !== undefined && review.reviewedAt < options.since) continue;
    if (review.reviewer === undefined || review.warcRecordId === undefined) continue;
    if (review.reviewer.kind === 'person' && review.kind !== 'amount') continue;
    report.checked += 1;
    const subject = `${review.reviewer.kind} review of ${review.city}/${review.programId} reviewed ${review.reviewedAt}`;
    const recorded = describe(review);
    const differ = (recordId: string, file: string | undefined, rederived: string) => report.differences.push({ kind: 'review', recordId, file, subject, recorded, rederived });
    const page = await readPage(review, options);
    if (page.kind === 'unreadable') {
      differ(page.recordId, page.file, `nothing: ${page.why}`);
      continue;
    }
    let again: string;
    if (review.reviewer.kind === 'model') {
      const responseId = review.exchange?.responseRecordId;
      if (responseId === undefined) {
        differ(review.warcRecordId, page.file, 'nothing: the line names no exchange');
        continue;
      }
      let answer: ArchivedResponse;
      try {
        answer = await options.readResponse(responseId);
      } catch (error) {
        if (!options.isDigestFailure(error)) throw error;
        differ(responseId, error.file, `nothing: the archived answer: ${problemOf(error)}`);
        continue;
      }
      const judged = await judgeReviewAnswer(answer.payload, page.page, options.extract);
      again = judged.kind === 'accepted' ? describe({ ...review, ...judged.verdict, ...(judged.verdict.kind === 'identity' ? { amountQuote: undefined, quoteFoundInPage: undefined } : {}) }) : `rejected (${judged.reason}): ${judged.detail}`;
      if (again !== recorded) differ(responseId, answer.file, again);
      else report.matched += 1;
      continue;
    }
    const acceptance = await quoteStatesAmount(page.page, review.amountQuote ?? '', null, options.extract);
    again = acceptance.kind === 'inconclusive' ? `inconclusive: ${acceptance.reason}` : describe({ ...review, quoteFoundInPage: acceptance.found });
    if (again !== recorded) differ(review.warcRecordId, page.file, again);
    else report.matched += 1;
  }
  return report;
}

type ReadPage = { kind: 'page'; page: FetchedPage; file: string } | { kind: 'unreadable'; recordId: string; file: string | undefined; why: string };

async function readPage(review: SourceReview, options: RederiveReviewsOptions): Promise<ReadPage> {
  const recordId = review.warcRecordId!;
  let response: ArchivedResponse;
  try {
    response = await options.readResponse(recordId);
  } catch (error) {
    if (!options.isDigestFailure(error)) throw error;
    return { kind: 'unreadable', recordId, file: error.file, why: `the archived page: ${problemOf(error)}` };
  }
  const digest = sha256Hex(response.payload);
  if (digest !== review.payloadSha256) return { kind: 'unreadable', recordId, file: response.file, why: `payload sha256 ${review.payloadSha256 ?? '(none)'}, but the record holds ${digest}` };
  const contentType = single(response.headers['content-type']) ?? null;
  const body = await readArchivedPage(response, contentType);
  if (body.kind === 'broken') return { kind: 'unreadable', recordId, file: response.file, why: body.reason };
  return { kind: 'page', page: { body: body.bytes, contentType, complete: body.complete }, file: response.file };
}

/** A review as compared: its verdict fields. */
function describe(review: Pick<SourceReview, 'kind' | 'identityMatch' | 'amountQuote' | 'quoteFoundInPage'>): string {
  const verdict = `${review.kind} ${review.identityMatch ? 'match' : 'mismatch'}`;
  return review.kind === 'amount' ? `${verdict}, quote ${JSON.stringify(review.amountQuote)} ${review.quoteFoundInPage ? 'found' : 'not found'}` : verdict;
}

/** The reader's message without the file and record it starts with: the difference names them itself. */
function problemOf(error: Error & { file?: string; recordId?: string }): string {
  const location = `${error.file} record ${error.recordId}: `;
  return error.message.startsWith(location) ? error.message.slice(location.length) : error.message;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
