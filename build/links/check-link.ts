/**
 * One link-check attempt: HEAD first, GET where HEAD cannot settle it, redirects followed hop by hop,
 * transient failures retried with backoff, and the final response classified.
 */
import { classifyResponse } from './classify-response.ts';
import type { LinkVerdict } from './link-check-types.ts';
import { refusedScheme } from './outbound-policy.ts';
import { RequestFailure } from './request-failure.ts';
import { backoffMs, retryAfterMs } from './retry-delay.ts';
import { isHtml, type BodyRead, type SentResponse } from './send-request.ts';

/** The most redirects an attempt follows; one more is `inconclusive` (issue 12). */
export const MAX_REDIRECTS = 10;

/** What an attempt needs from the outside world. */
export interface CheckLinkDeps {
  /**
   * Sends one request while holding `host`'s politeness slot; throws RequestFailure when no response
   * comes. `read`: what to read of a 2xx body (send-request.ts).
   */
  send(url: string, method: 'HEAD' | 'GET', read: BodyRead): Promise<SentResponse>;
  /** Holds every request to `host` until `untilMs` (the gate's clock), for Retry-After and backoff. */
  deferHost(host: string, untilMs: number): void;
  /** The gate's clock, in ms. */
  now(): number;
  /** Wall-clock ms, for Retry-After HTTP-dates. */
  wallNow(): number;
  random(): number;
  /** Retries after the first try of each request. */
  retries: number;
  /** First backoff step, in ms; each later retry doubles it. */
  backoffBaseMs: number;
  /** A Retry-After longer than this is not waited for: the attempt is `inconclusive`. */
  retryAfterCapMs: number;
  /**
   * True for a try that never reached its host (a failure, or a proxy's status) while retrying it would
   * only delay the no-network decision: the attempt then ends at once, marked `unretried` (network-guard.ts).
   */
  skipRetries?(answer: RequestFailure | number): boolean;
}

/** The statuses that redirect when they carry a Location. */
export const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Checks `url` once. A RequestFailure of kind `proxy-refused` propagates (the run stops); every other
 * failure becomes an `inconclusive` verdict.
 *
 * HEAD answers that settle a hop without a body: a redirect, or a 2xx that is not HTML. Any other HEAD
 * answer is asked again with GET: 405 and 501 (HEAD refused), other 4xx (HEAD handlers are often wrong,
 * and a `dead` verdict must not rest on one), and a 2xx HTML page, whose title and heading the soft-404
 * and bot-wall rules read. Once an attempt falls back to GET it stays on GET for later hops.
 *
 * `getFirst` starts with GET where HEAD is expected not to settle the URL (its last attempt read an HTML
 * page: read-a-body-last-time.ts). The rules are the same either way: each classifies the final response,
 * and a GET answer is what the HEAD fallback would have asked for.
 */
export async function checkLink(url: string, deps: CheckLinkDeps, options: { wantPage?: boolean; getFirst?: boolean } = {}): Promise<LinkVerdict> {
  // A page whose text the quote checks need is fetched with GET from the first hop: HEAD could not give
  // the body, so it would only add a request.
  const read: BodyRead = options.wantPage === true ? 'page' : 'prefix';
  let current = url;
  let method: 'HEAD' | 'GET' = read === 'page' || options.getFirst === true ? 'GET' : 'HEAD';
  const seen = new Set([url]);
  for (let redirects = 0; ;) {
    const answer = await sendWithRetries(current, method, read, deps);
    if ('failure' in answer) {
      const { failure } = answer;
      if (failure.kind === 'proxy-refused') throw failure;
      // A refused destination is named as the hop it was: the cited URL itself, or where it redirected.
      const reason = failure.kind === 'refused' && redirects > 0 ? `refused: redirect to ${failure.detail}` : failure.message;
      const marks = {
        ...(failure.unreachable ? { unreachable: true as const } : {}),
        ...(failure.unreachable && !failure.transient ? { lasting: true as const } : {}),
        ...(failure.kind === 'refused' ? { refused: true as const } : {}),
        ...(answer.unretried ? { unretried: true as const } : {}),
      };
      return { outcome: 'inconclusive', httpStatus: null, reason, ...marks };
    }
    const { response } = answer;
    const location = header(response.headers.location);
    if (REDIRECTS.has(response.status) && location !== undefined) {
      const next = resolveLocation(location, current);
      const inconclusive = (reason: string): LinkVerdict => ({
        outcome: 'inconclusive', httpStatus: response.status, reason, ...(response.archived ? { archived: response.archived } : {}),
      });
      if (next === undefined) return inconclusive(`redirect to an unusable location ${JSON.stringify(location)}`);
      const scheme = refusedScheme(new URL(next));
      if (scheme !== undefined) return { ...inconclusive(`refused: redirect to ${scheme}`), refused: true };
      if (seen.has(next)) return inconclusive(`redirect loop at ${next}`);
      if (redirects === MAX_REDIRECTS) return inconclusive(`more than ${MAX_REDIRECTS} redirects`);
      seen.add(next);
      current = next;
      redirects += 1;
      continue;
    }
    if (method === 'HEAD' && needsGet(response)) {
      method = 'GET';
      continue;
    }
    const classified = classifyResponse({ status: response.status, headers: response.headers, body: response.body, citedUrl: url, finalUrl: current });
    // The final URL and the page matter to the quote checks only; a plain link attempt stays as it was.
    const verdict: LinkVerdict = read === 'page'
      ? { ...classified, finalUrl: current, contentType: header(response.headers['content-type']) ?? null }
      : classified;
    if (response.page !== undefined) verdict.page = response.page;
    if (response.archived !== undefined) verdict.archived = response.archived;
    if (answer.unretried === true) verdict.unretried = true;
    return answer.note === undefined ? verdict : { ...verdict, reason: `${verdict.reason}; ${answer.note}` };
  }
}

function needsGet(response: SentResponse): boolean {
  const { status } = response;
  if (status >= 200 && status <= 299) return isHtml(response.headers['content-type']);
  return status === 405 || status === 501 || (status >= 400 && status <= 499 && status !== 429);
}

/** Statuses worth another try: rate limiting and server trouble, except 501 (a method not implemented). */
function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/**
 * Sends one request, retrying timeouts, connection failures and transient statuses up to
 * `deps.retries` times. A Retry-After on 429 or 503 sets the wait (and holds the whole host); beyond the
 * cap the answer is returned at once. Otherwise the wait is exponential backoff with jitter.
 */
async function sendWithRetries(
  url: string, method: 'HEAD' | 'GET', read: BodyRead, deps: CheckLinkDeps,
): Promise<{ response: SentResponse; note?: string; unretried?: true } | { failure: RequestFailure; unretried?: true }> {
  const host = new URL(url).host;
  for (let retry = 1; ; retry += 1) {
    let response: SentResponse;
    try {
      response = await deps.send(url, method, method === 'GET' ? read : 'none');
    } catch (error) {
      if (!(error instanceof RequestFailure)) throw error;
      if (!error.transient || retry > deps.retries) return { failure: error };
      if (deps.skipRetries?.(error) === true) return { failure: error, unretried: true };
      deps.deferHost(host, deps.now() + backoffMs(retry, deps.backoffBaseMs, deps.random));
      continue;
    }
    if (!isTransientStatus(response.status)) return { response };
    if (retry <= deps.retries && deps.skipRetries?.(response.status) === true) return { response, unretried: true };
    const asked = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers['retry-after'], deps.wallNow()) : undefined;
    if (asked !== undefined && asked > deps.retryAfterCapMs) {
      return { response, note: `Retry-After ${Math.round(asked / 1000)} s is beyond the ${deps.retryAfterCapMs / 1000} s cap` };
    }
    if (retry > deps.retries) return { response, note: `after ${deps.retries} ${deps.retries === 1 ? 'retry' : 'retries'}` };
    deps.deferHost(host, deps.now() + (asked ?? backoffMs(retry, deps.backoffBaseMs, deps.random)));
  }
}

/** The absolute URL a Location names (fragment dropped), or undefined. */
export function resolveLocation(location: string, base: string): string | undefined {
  try {
    const next = new URL(location, base);
    next.hash = '';
    return next.href;
  } catch {
    return undefined;
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
