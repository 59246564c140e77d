/**
 * A scripted OpenAI-compatible Chat Completions server on loopback: the model of the reviewer's tests, its
 * bench and `hra rehearse`'s offline rehearsal. Each request to POST /v1/chat/completions is answered by the
 * script: an answer (content, finish reason, refusal), an HTTP status (429 with Retry-After, 500), a body
 * of raw bytes, or no answer at all (a hang), after a set latency. It binds 127.0.0.1 on an ephemeral port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHARS_PER_TOKEN } from '../../build/reviews/select-passages.ts';

/** One scripted reply. */
export type ScriptedReply =
  /** An answer: `content` is the message text (an object is sent as its JSON). */
  | { kind: 'answer'; content: unknown; finishReason?: 'stop' | 'length' | 'content_filter'; refusal?: string; usage?: { prompt: number; completion: number } }
  /** A refusal as OpenAI sends it: no content, `message.refusal` set. */
  | { kind: 'refusal'; refusal: string }
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  /** The raw response body, sent as JSON with status 200 (invalid JSON, an oversized body). */
  | { kind: 'raw'; body: string | Uint8Array }
  /** Headers are never sent; the connection stays open until the server closes. */
  | { kind: 'hang' };

/** One request as the server received it. */
export interface ReceivedRequest {
  index: number;
  method: string;
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: { model?: string; messages?: Array<{ role: string; content: string }>; [key: string]: unknown } | undefined;
  rawBody: string;
}

/** How the server answers. */
export interface ModelServerOptions {
  /** The reply to the `index`th chat request (0-based), given the request. */
  reply(request: ReceivedRequest): ScriptedReply;
  /** Milliseconds before each reply is sent (default 0); a function to vary it per request. */
  latencyMs?: number | ((request: ReceivedRequest) => number);
}

/** A running server. */
export interface ModelServer {
  /** The base URL clients are given, ending in /v1. */
  baseUrl: string;
  /** Every chat request received, in order. */
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * The usage a scripted answer reports unless the script sets one: the characters of what a model would read
 * (every message's text, and the response format's schema, which a server feeds it too) and of the answer's
 * text, at the prompt builder's own CHARS_PER_TOKEN. Not a tokenizer: a real model's counts differ (its
 * vocabulary, and the chat template's tokens around each message), so bench figures built on these are
 * estimates. A body that is not JSON counts its raw characters.
 */
export function estimatedUsage(request: Pick<ReceivedRequest, 'body' | 'rawBody'>, answerText: string): { prompt: number; completion: number } {
  const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);
  if (request.body === undefined) return { prompt: tokens(request.rawBody.length), completion: tokens(answerText.length) };
  const messages = Array.isArray(request.body.messages) ? request.body.messages : [];
  const messageChars = messages.reduce((sum, message) => sum + (typeof message?.content === 'string' ? message.content.length : 0), 0);
  const formatChars = request.body.response_format === undefined ? 0 : JSON.stringify(request.body.response_format).length;
  return { prompt: tokens(messageChars + formatChars), completion: tokens(answerText.length) };
}

/** Starts the server (see the file head). */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      return;
    }
    let body: ReceivedRequest['body'];
    try {
      body = JSON.parse(rawBody) as ReceivedRequest['body'];
    } catch {
      body = undefined;
    }
    const request: ReceivedRequest = { index: requests.length, method: req.method, path, headers: req.headers, body, rawBody };
    requests.push(request);
    const reply = options.reply(request);
    const latency = typeof options.latencyMs === 'function' ? options.latencyMs(request) : (options.latencyMs ?? 0);
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    send(res, reply, request);
  }
  function send(res: ServerResponse, reply: ScriptedReply, request: ReceivedRequest): void {
    if (reply.kind === 'hang') {
      hanging.add(res);
      return;
    }
    if (reply.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
      res.writeHead(reply.status, headers).end(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'scripted' } }));
      return;
    }
    if (reply.kind === 'raw') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply.body);
      return;
    }
    const message = reply.kind === 'refusal'
      ? { role: 'assistant', content: null, refusal: reply.refusal }
      : { role: 'assistant', content: typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content), refusal: reply.refusal ?? null };
    const finish = reply.kind === 'refusal' ? 'stop' : (reply.finishReason ?? 'stop');
    const usage = reply.kind === 'answer' && reply.usage !== undefined ? reply.usage : estimatedUsage(request, String(message.content ?? message.refusal ?? ''));
    const completion = {
      id: `chatcmpl-loopback-${request.index}`, object: 'chat.completion', created: 1_767_225_600, model: request.body?.model ?? 'loopback',
      choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
      usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
