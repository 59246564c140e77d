/** Sends one HTTP request of a link check through undici, with a deadline and a capped body read. */
import { request, type Dispatcher } from 'undici';
import type { ArchivedExchange } from '../archive/open-archive-writer.ts';
import { capFor } from '../quotes/extract-page-text.ts';
import type { ExchangeCapture } from './capture-exchange.ts';
import type { ByteBudget } from './create-byte-budget.ts';
import { readBodyPrefix } from './read-body-prefix.ts';
import { readPageBody, type PageBody } from './read-page-body.ts';
import { headingsText } from './read-page-headings.ts';
import { describeRequestFailure, proxyAuthFailure } from './request-failure.ts';

/** A response as the attempt logic needs it. */
export interface SentResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Decoded start of the body: only when asked for, for a 2xx HTML response. */
  body: string | undefined;
  /** The whole body up to its type's cap: only when `read` is `page` and the answer is a 2xx. */
  page?: PageBody;
  /** Where this exchange was archived, when the run archives (set by the caller once it is indexed). */
  archived?: ArchivedExchange;
}

/**
 * What to read of a 2xx body: `none`; `prefix`, the start of an HTML page (the link rules); or `page`, the
 * whole body of any type up to capFor(its Content-Type) (the quote checks, which also give the prefix).
 */
export type BodyRead = 'none' | 'prefix' | 'page';

/** Everything one request needs; the caller holds the host's politeness slot around the call. */
export interface SendRequestOptions {
  dispatcher: Dispatcher;
  viaProxy: boolean;
  url: string;
  method: 'HEAD' | 'GET';
  headers: Readonly<Record<string, string>>;
  /** Deadline for the whole exchange: connect, headers and the body prefix. */
  timeoutMs: number;
  /** What to read of a 2xx answer (the soft-404 and bot-wall rules read an HTML page's start). */
  read: BodyRead;
  /** Most bytes of the prefix the link rules read. */
  bodyCap: number;
  /**
   * The run's bound on page bytes held: a page read waits here for room before reading, and the bytes it
   * returns stay held until the caller releases `page.bytes.byteLength` of them.
   */
  pageBudget?: ByteBudget;
  /** Captures the exchange for the evidence archive: the bytes as they arrive, whatever the read keeps. */
  capture?: ExchangeCapture;
}

/** The bytes kept of a body over its cap: enough to tell a PDF from HTML (extract-page-text.ts sniffs 1024). */
const OVER_CAP_KEPT_BYTES = 1024;

// The rules read the title and the first h1; nothing after the first h1's end tag changes the verdict.
const BODY_STOP = /<\/h1\s*>/i;

/**
 * Sends the request; throws a RequestFailure when no response arrives, or when the proxy answers 407 for
 * itself. Redirects are not followed here.
 */
export async function sendRequest(options: SendRequestOptions): Promise<SentResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    options.capture?.timedOut();
    controller.abort();
  }, options.timeoutMs);
  try {
    const response = await request(options.url, {
      dispatcher: options.capture === undefined ? options.dispatcher : options.dispatcher.compose(options.capture.interceptor),
      method: options.method,
      headers: { ...options.headers },
      signal: controller.signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    const headers = response.headers as SentResponse['headers'];
    // An http:// URL goes to the proxy in absolute form, so its 407 is the proxy's own, never the site's
    // (inside an https:// tunnel a 407 would be the site's, and is judged as any other 4xx).
    if (options.viaProxy && response.statusCode === 407 && new URL(options.url).protocol === 'http:') {
      await response.body.dump({ limit: 16 * 1024 }).catch(() => {});
      throw proxyAuthFailure();
    }
    const success = response.statusCode >= 200 && response.statusCode <= 299;
    if (options.read === 'page' && success) {
      const contentType = single(headers['content-type']) ?? null;
      const coding = single(headers['content-encoding']);
      const cap = capFor(contentType);
      // An uncoded body whose length is declared over its cap is refused from its first bytes, unread.
      const declared = coding === undefined || coding === 'identity' ? declaredLength(headers['content-length']) : undefined;
      const readCap = declared !== undefined && declared > cap ? OVER_CAP_KEPT_BYTES : cap;
      // All a read may keep is held before it starts (a declared length, else the cap), so no reader ever
      // waits while holding bytes, and the wait ends at the deadline.
      const budget = options.pageBudget;
      const reserved = Math.min(declared ?? readCap, readCap) + 1;
      let held = 0;
      let page: PageBody;
      try {
        await budget?.acquire(reserved, controller.signal);
        held = reserved;
        page = await readPageBody(response.body, coding, readCap, OVER_CAP_KEPT_BYTES);
      } catch (error) {
        // Only the budget's wait throws here (the read answers its own failures): the deadline passed.
        response.body.destroy();
        page = { kind: 'broken', reason: `waiting for room in the page byte budget failed (${(error as Error).message})` };
      }
      if (page.kind === 'broken' && timedOut) page.reason = `no complete body within the ${options.timeoutMs} ms deadline`;
      const body = page.kind === 'read' && isHtml(contentType ?? undefined)
        ? headingsText(page.bytes, options.bodyCap)
        : undefined;
      budget?.release(Math.max(0, held - (page.kind === 'read' ? page.bytes.byteLength : 0)));
      return { status: response.statusCode, headers, body, page };
    }
    const wanted = options.read !== 'none' && response.statusCode >= 200 && response.statusCode <= 299 && isHtml(headers['content-type']);
    if (!wanted) {
      // Read a little so the connection can be reused, then let it go.
      await response.body.dump({ limit: 16 * 1024 }).catch(() => {});
      return { status: response.statusCode, headers, body: undefined };
    }
    const stop = { cap: options.bodyCap, stopAt: BODY_STOP };
    options.capture?.readsPrefix(stop);
    const body = await readBodyPrefix(response.body, single(headers['content-encoding']), stop);
    return { status: response.statusCode, headers, body };
  } catch (error) {
    throw describeRequestFailure(error, { viaProxy: options.viaProxy, timedOut });
  } finally {
    clearTimeout(timer);
  }
}

/** True for HTML, and for a missing type (many servers omit it; the body then decides). */
export function isHtml(contentType: string | string[] | undefined): boolean {
  const type = single(contentType);
  return type === undefined || /html/i.test(type);
}

function declaredLength(value: string | string[] | undefined): number | undefined {
  const text = single(value)?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
