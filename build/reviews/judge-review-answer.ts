/**
 * Decides what one archived model answer makes: a review line's verdict, or a rejection with its reason.
 * It reads only the answer's bytes (the HTTP response body as archived) and the archived page, so a run and
 * a replay that re-derives the review from the archive decide alike, and the model is never asked again.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../corpus/create-ajv.ts';
import type { ExtractText } from '../links/check-quotes.ts';
import type { FetchedPage } from '../quotes/extract-page-text.ts';
import { quoteStatesAmount } from './quote-states-amount.ts';
import { acceptedAnswerSchema, type ReviewAnswer } from './review-answer-schema.ts';

/** Why an answer adds no review. */
export const REJECTION_REASONS = [
  'invalid-answer', 'refusal', 'truncated', 'unsure', 'quote-not-found', 'quote-without-amount', 'page-inconclusive',
] as const;

/** One of REJECTION_REASONS. */
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** The verdict fields of a review line an accepted answer makes (corpus/README.md, "Source reviews"). */
export type ReviewVerdict =
  | { kind: 'identity'; identityMatch: boolean }
  | { kind: 'amount'; identityMatch: true; amountQuote: string; quoteFoundInPage: true };

/** What an answer makes. */
export type AnswerJudgement =
  | { kind: 'accepted'; verdict: ReviewVerdict; answer: ReviewAnswer; usage: TokenUsage | undefined }
  | { kind: 'rejected'; reason: RejectionReason; detail: string; usage: TokenUsage | undefined };

/** Tokens the endpoint says the call took. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

let validateAnswer: ValidateFunction | undefined;

/**
 * Judges `body`, a Chat Completions response. Accepted only when: it parses, its first choice ended
 * normally (not `length`), carries no refusal, its content validates against acceptedAnswerSchema, and
 * identity is `match` or `mismatch`. A `match` with an `amountQuote` is an amount judgment: accepted only
 * when the quote is found in the page's visible text by the quote check's matcher and states
 * `statedAmount`; a quote the page lacks rejects the whole answer (a model that invents a quote makes no
 * evidence at all). A `mismatch` is an identity review whatever quote it gives.
 */
export async function judgeReviewAnswer(body: Uint8Array, page: FetchedPage, extract: ExtractText): Promise<AnswerJudgement> {
  let completion: Completion;
  try {
    completion = JSON.parse(Buffer.from(body).toString('utf8')) as Completion;
  } catch (error) {
    return { kind: 'rejected', reason: 'invalid-answer', detail: `response is not JSON (${(error as Error).message})`, usage: undefined };
  }
  const usage = readUsage(completion);
  const reject = (reason: RejectionReason, detail: string): AnswerJudgement => ({ kind: 'rejected', reason, detail, usage });
  const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
  if (choice === undefined || typeof choice !== 'object' || choice === null) return reject('invalid-answer', 'response has no choices');
  if (choice.finish_reason === 'length') return reject('truncated', 'the answer was cut at its token limit (finish_reason length)');
  const message = choice.message;
  if (typeof message?.refusal === 'string' && message.refusal.trim() !== '') return reject('refusal', `the model refused: ${clip(message.refusal)}`);
  if (choice.finish_reason === 'content_filter') return reject('refusal', 'the endpoint filtered the answer (finish_reason content_filter)');
  if (typeof message?.content !== 'string') return reject('invalid-answer', 'the answer has no text content');
  let answer: unknown;
  try {
    answer = JSON.parse(message.content);
  } catch (error) {
    return reject('invalid-answer', `the answer is not JSON (${(error as Error).message})`);
  }
  validateAnswer ??= createAjv().compile(acceptedAnswerSchema);
  if (!validateAnswer(answer)) {
    const first = validateAnswer.errors?.[0];
    return reject('invalid-answer', `the answer does not match its schema: ${first?.instancePath || '$'} ${first?.message ?? ''}`.trim());
  }
  const valid = answer as ReviewAnswer;
  if (valid.identity === 'unsure') return reject('unsure', 'the model was unsure whether the page is the program');
  if (valid.identity === 'mismatch') return { kind: 'accepted', verdict: { kind: 'identity', identityMatch: false }, answer: valid, usage };
  if (valid.amountQuote === null) return { kind: 'accepted', verdict: { kind: 'identity', identityMatch: true }, answer: valid, usage };
  if (valid.statedAmount === null) return reject('quote-without-amount', 'the answer quotes an amount but states none');
  const acceptance = await quoteStatesAmount(page, valid.amountQuote, valid.statedAmount, extract);
  if (acceptance.kind === 'inconclusive') return reject('page-inconclusive', `the page cannot settle the quote: ${acceptance.reason}`);
  if (!acceptance.found) return reject('quote-not-found', `the quote is not in the page's visible text: ${JSON.stringify(clip(valid.amountQuote))}`);
  if (!acceptance.statesAmount) return reject('quote-without-amount', `the quote does not state ${valid.statedAmount}: ${JSON.stringify(clip(valid.amountQuote))}`);
  return { kind: 'accepted', verdict: { kind: 'amount', identityMatch: true, amountQuote: valid.amountQuote, quoteFoundInPage: true }, answer: valid, usage };
}

interface Completion {
  choices?: Array<{ finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } } | null>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

function readUsage(completion: Completion | null): TokenUsage | undefined {
  const usage = completion?.usage;
  if (typeof usage?.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return undefined;
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
