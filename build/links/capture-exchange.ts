/**
 * Captures one request's exchange for the evidence archive as it passes through undici: the response's status,
 * headers as received, the body bytes as they arrived (content-encoding kept, transfer-encoding removed), whether
 * the read ended, and the socket's remote address.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Dispatcher } from 'undici';
import type { ArchiveExchange, ArchiveHeader, ArchiveTruncation } from '../archive/open-archive-writer.ts';
import { PDF_CAP_BYTES } from '../quotes/extract-page-text.ts';
import type { ByteBudget } from './create-byte-budget.ts';
import { minimalPayloadPrefix } from './minimal-payload-prefix.ts';
import type { BodyPrefixOptions } from './read-body-prefix.ts';

/** One request's capture: the interceptor to compose onto its dispatcher, then the exchange it saw. */
export interface ExchangeCapture {
  interceptor: Dispatcher.DispatcherComposeInterceptor;
  /** Called when the request's deadline passed, so a body cut there is archived as WARC-Truncated: time. */
  timedOut(): void;
  /**
   * Called when the reader will stop at `stop` (the link rules' prefix): the payload is then cut to the
   * shortest start of the bytes whose decoding gets there, whatever chunks they came in.
   */
  readsPrefix(stop: BodyPrefixOptions): void;
  /** The exchange as far as it went, or undefined when no response arrived. */
  exchange(): Promise<ArchiveExchange | undefined>;
  /** Gives the captured bytes back to the budget they were counted in (once the exchange is archived or dropped). */
  release(): void;
}

/** What the request was, as the link checker sent it. */
export interface CaptureRequest {
  url: string;
  method: string;
  headers: Readonly<Record<string, string>>;
  /** Wall-clock ms, read when the request is dispatched (WARC-Date). */
  now(): number;
}

/** Bytes captured at most: past the largest body a reader keeps, with room for what is in flight when it stops. */
export const MAX_CAPTURED_BYTES = PDF_CAP_BYTES + 1024 * 1024;

// undici publishes which socket sent a request, then, synchronously before the handler chain hears of the
// response, that its headers arrived: the address read in onResponseStart is that request's own.
const sockets = new WeakMap<object, { remoteAddress?: string }>();
let latestAddress: string | undefined;
let watching = false;

function watchSockets(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: object; socket: { remoteAddress?: string } };
    sockets.set(request, socket);
  });
  subscribe('undici:request:headers', (message) => {
    latestAddress = sockets.get((message as { request: object }).request)?.remoteAddress;
  });
}

function headerPairs(raw: unknown, parsed: Record<string, string | string[] | undefined>): ArchiveHeader[] {
  if (Array.isArray(raw) && raw.length % 2 === 0) {
    const pairs: ArchiveHeader[] = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push([String(raw[i]), Buffer.isBuffer(raw[i + 1]) ? raw[i + 1].toString('latin1') : String(raw[i + 1])]);
    return pairs;
  }
  const pairs: ArchiveHeader[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) pairs.push([name, one]);
  }
  return pairs;
}

/**
 * Starts capturing one request (see the file head); compose `interceptor` onto the dispatcher it is sent with.
 * With `budget`, the bytes kept are held in it as they arrive, until `release`: they are page bytes in memory.
 */
export function captureExchange(request: CaptureRequest, maxBytes = MAX_CAPTURED_BYTES, budget?: ByteBudget): ExchangeCapture {
  watchSockets();
  let response: { status: number; statusText: string | undefined; headers: ArchiveHeader[]; address: string | undefined } | undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let released = 0;
  let ended = false;
  let overflow = false;
  let failed = false;
  let deadline = false;
  let prefix: BodyPrefixOptions | undefined;
  let sentAt: Date | undefined;
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
    sentAt = new Date(request.now());
    return dispatch(options, {
    onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
    onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
    onResponseStart(controller, status, headers, statusText) {
      if (status >= 200) {
        response = { status, statusText, headers: headerPairs(controller.rawHeaders, headers as Record<string, string | string[]>), address: latestAddress };
      }
      return handler.onResponseStart?.(controller, status, headers, statusText);
    },
    onResponseData(controller, chunk) {
      if (!overflow && size + chunk.length <= maxBytes) {
        chunks.push(chunk);
        size += chunk.length;
        // Already in memory, so it cannot wait for room; it makes the next reader wait instead.
        budget?.take(chunk.length);
      } else overflow = true;
      return handler.onResponseData?.(controller, chunk);
    },
    onResponseEnd(controller, trailers) {
      ended = true;
      return handler.onResponseEnd?.(controller, trailers);
    },
    onResponseError(controller, error) {
      // An abort is the reader stopping at what it needs (or the deadline); anything else broke the transfer.
      if ((error as { code?: string }).code !== 'UND_ERR_ABORTED' && error.name !== 'AbortError') failed = true;
      return handler.onResponseError?.(controller, error);
    },
    });
  };
  return {
    interceptor,
    timedOut: () => void (deadline = true),
    release() {
      budget?.release(size - released);
      released = size;
    },
    readsPrefix: (stop) => void (prefix = stop),
    async exchange() {
      if (response === undefined || sentAt === undefined) return undefined;
      let truncated: ArchiveTruncation | undefined = ended && !overflow ? undefined
        : deadline ? 'time' : failed ? 'disconnect' : 'length';
      let payload = Buffer.concat(chunks, size);
      // Where the reader stopped is a fact of the bytes; how many more had arrived by then is chunk timing,
      // and would make an unchanged page a new payload (no revisit) every week.
      const end = prefix === undefined ? undefined : await minimalPayloadPrefix(payload, contentEncoding(response.headers), prefix);
      if (end !== undefined && (end < size || truncated !== undefined)) {
        payload = payload.subarray(0, end);
        truncated = 'length';
      }
      const host = new URL(request.url).host;
      return {
        targetUri: request.url,
        date: sentAt,
        ...(response.address === undefined ? {} : { ipAddress: response.address }),
        request: { method: request.method, headers: [['Host', host], ...Object.entries(request.headers)] },
        response: {
          status: response.status,
          ...(response.statusText ? { statusText: response.statusText } : {}),
          headers: response.headers,
          payload,
          ...(truncated === undefined ? {} : { truncated }),
        },
      };
    },
  };
}

function contentEncoding(headers: readonly ArchiveHeader[]): string | undefined {
  return headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
}
