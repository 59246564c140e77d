/**
 * One model review call through the `openai` client to any OpenAI-compatible Chat Completions endpoint:
 * temperature 0, the answer schema as a strict `response_format`, an explicit timeout, and our own retries
 * (the client's are off) so that each retry is logged and `Retry-After` is obeyed. The client's fetch is
 * wrapped to capture the exchange as sent and received for the evidence archive, and to cap the answer's
 * bytes before anything parses them. The key is passed only to the client; the exchange never holds it.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { ArchiveExchange, ArchiveHeader } from '../archive/open-archive-writer.ts';
import { reviewAnswerSchema } from './review-answer-schema.ts';
import type { PromptMessage } from './review-prompt.ts';

/** Where and how the model is called. */
export interface ReviewModelConfig {
  /** The endpoint's base URL, such as http://127.0.0.1:8080/v1. */
  baseUrl: string;
  model: string;
  /** The key from `--api-key-env`, or undefined for an endpoint that takes none (no Authorization is sent). */
  apiKey: string | undefined;
  /** Longest one attempt may take, answer included (default DEFAULT_MODEL_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Attempts after the first, on 429, 5xx, a timeout or a broken connection (default DEFAULT_MODEL_RETRIES). */
  retries?: number;
  /** Most tokens the answer may take (`max_tokens`). */
  maxTokens?: number;
  /** Waits `ms` (tests pass a recorder); default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Told of each retry and why. */
  log?: (message: string) => void;
}

/** 60 s per attempt: a local model on a CPU answers a review's prompt in well under that. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;
/** 3 retries, so 4 attempts in all. */
export const DEFAULT_MODEL_RETRIES = 3;
/** 400 answer tokens: the answer schema's four fields with a two-sentence rationale. */
export const DEFAULT_MAX_ANSWER_TOKENS = 400;
/** 64 KiB: an answer past this is not read, let alone parsed. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** Longest Retry-After obeyed, in seconds; a longer one fails the call rather than stall the run. */
export const MAX_RETRY_AFTER_SECONDS = 120;

/** What one review call gave. */
export type ModelCall =
  | { kind: 'answered'; exchange: ArchiveExchange; body: Uint8Array; attempts: number }
  | { kind: 'failed'; reason: string; attempts: number };

/** Calls the model once for `messages` (with retries as configured). */
export async function callReviewModel(config: ReviewModelConfig, messages: readonly PromptMessage[]): Promise<ModelCall> {
  const retries = config.retries ?? DEFAULT_MODEL_RETRIES;
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let attempt = 0;
  for (;;) {
    attempt += 1;
    const outcome = await attemptOnce(config, messages);
    if (outcome.kind === 'answered') return { ...outcome, attempts: attempt };
    if (!outcome.retry || attempt > retries) return { kind: 'failed', reason: `${outcome.reason}${attempt > 1 ? ` (after ${attempt} attempts)` : ''}`, attempts: attempt };
    const waitMs = outcome.retryAfterMs ?? Math.min(30_000, 1000 * 2 ** (attempt - 1));
    if (waitMs > MAX_RETRY_AFTER_SECONDS * 1000) return { kind: 'failed', reason: `${outcome.reason}: Retry-After of ${Math.round(waitMs / 1000)} s is past the ${MAX_RETRY_AFTER_SECONDS} s this run waits`, attempts: attempt };
    config.log?.(`model: ${outcome.reason}; retry ${attempt} of ${retries} in ${(waitMs / 1000).toFixed(1)} s${outcome.retryAfterMs === undefined ? '' : ' (Retry-After)'}`);
    await sleep(waitMs);
  }
}

type Attempt =
  | { kind: 'answered'; exchange: ArchiveExchange; body: Uint8Array }
  | { kind: 'failed'; reason: string; retry: boolean; retryAfterMs?: number };

interface Captured {
  url: string;
  date: Date;
  method: string;
  requestHeaders: ArchiveHeader[];
  requestBody: Uint8Array;
  status: number;
  statusText: string;
  responseHeaders: ArchiveHeader[];
  body: Uint8Array;
}

async function attemptOnce(config: ReviewModelConfig, messages: readonly PromptMessage[]): Promise<Attempt> {
  let captured: Captured | undefined;
  let oversized = false;
  const capturing = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    // No key: nothing is sent that an endpoint could log or a proxy could keep.
    if (config.apiKey === undefined) headers.delete('authorization');
    // The archive keeps the answer's bytes as they were sent: fetch would decode a compressed body silently.
    headers.set('accept-encoding', 'identity');
    const date = new Date();
    const response = await fetch(input, { ...init, headers });
    const body = await readCapped(response, () => void (oversized = true));
    const requestBody = typeof init?.body === 'string' ? Buffer.from(init.body, 'utf8') : new Uint8Array();
    captured = {
      url: String(input instanceof Request ? input.url : input), date, method: init?.method ?? 'GET',
      requestHeaders: [...headers].filter(([name]) => !isCredential(name, headers.get(name), config.apiKey)),
      requestBody, status: response.status, statusText: response.statusText, responseHeaders: [...response.headers], body,
    };
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const client = new OpenAI({
    // Every setting explicit: the client would otherwise read OPENAI_* variables the operator did not name.
    apiKey: config.apiKey ?? 'no-key', baseURL: config.baseUrl, organization: null, project: null, webhookSecret: null,
    timeout: config.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS, maxRetries: 0, fetch: capturing, logLevel: 'off',
  });
  try {
    await client.chat.completions.create({
      model: config.model,
      messages: messages.map((message) => ({ role: message.role, content: message.content })),
      temperature: 0,
      max_tokens: config.maxTokens ?? DEFAULT_MAX_ANSWER_TOKENS,
      response_format: { type: 'json_schema', json_schema: { name: 'source_review', strict: true, schema: reviewAnswerSchema as unknown as Record<string, unknown> } },
    });
  } catch (error) {
    if (oversized) return { kind: 'failed', reason: `the answer is over ${MAX_ANSWER_BYTES} bytes`, retry: false };
    if (error instanceof APIConnectionError) {
      const timedOut = error.constructor.name === 'APIConnectionTimeoutError';
      return { kind: 'failed', reason: timedOut ? `no answer within ${config.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS} ms` : `endpoint unreachable (${describeCause(error)})`, retry: true };
    }
    if (error instanceof APIError && typeof error.status === 'number') {
      const retry = error.status === 429 || error.status >= 500;
      const retryAfterMs = retry ? readRetryAfter(error.headers) : undefined;
      return { kind: 'failed', reason: `endpoint answered ${error.status}`, retry, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    // A 2xx body the client could not read as JSON is still an answer: the judgement rejects it, archived.
    if (captured === undefined || captured.status < 200 || captured.status > 299) return { kind: 'failed', reason: `call failed (${(error as Error).message})`, retry: false };
  }
  if (captured === undefined) return { kind: 'failed', reason: 'no exchange was captured', retry: false };
  return {
    kind: 'answered',
    body: captured.body,
    exchange: {
      targetUri: captured.url,
      date: captured.date,
      request: { method: captured.method, headers: [['Host', new URL(captured.url).host], ...captured.requestHeaders], payload: captured.requestBody },
      response: { status: captured.status, statusText: captured.statusText, headers: captured.responseHeaders, payload: captured.body },
    },
  };
}

/** The body up to MAX_ANSWER_BYTES; past it, the read stops and `over` is called (the call then fails). */
async function readCapped(response: Response, over: () => void): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      over();
      await reader.cancel();
      throw new Error(`answer over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** A header that carries the key (by name, or by holding the key's value): never archived. */
function isCredential(name: string, value: string | null, apiKey: string | undefined): boolean {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'api-key' || lower === 'x-api-key' || lower === 'proxy-authorization' || lower === 'cookie') return true;
  return apiKey !== undefined && apiKey !== '' && value !== null && value.includes(apiKey);
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in ms; undefined when absent or unreadable. */
function readRetryAfter(headers: Headers | undefined): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms != null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function describeCause(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}
