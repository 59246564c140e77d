/**
 * The request guards, in order: method, URL length, percent-escapes, Host (missing, repeated or malformed),
 * Transfer-Encoding. Every request passes them before any route is chosen; the Koa app throws their refusal for its error renderer, and the fast path declines a request
 * they refuse, so Koa answers it. A 400 `MALFORMED_URL` is metered per client address first, as a request
 * no route matched is, so it carries the rate-limit headers spec 7 gives every 400; no route can be chosen
 * for a target that does not decode, so the address's window is the one it is metered by.
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { meterPublic, type PublicAccessDependencies } from '../access/public-access.ts';
import { ApiError } from './api-error.ts';
import type { GatewayState } from './gateway-state.ts';
import { hasMalformedPercentEscape } from './malformed-percent-escape.ts';

/**
 * The longest request target (path and query) served. Node refuses a request line and headers past
 * 16 KiB by itself (see harden-server.ts); this bound is tighter, so it is the one clients meet.
 */
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * The refusal of a request line, or undefined when it passes:
 * - 405 `METHOD_NOT_ALLOWED` (with `Allow`) for any method but GET and HEAD: the API is read-only;
 * - 414 `URI_TOO_LONG` for a request target longer than MAX_URL_LENGTH, before any route parses it;
 * - 400 `MALFORMED_URL` for a request target with a malformed percent-escape, in the path or the query;
 * - 400 `MALFORMED_REQUEST` with `Connection: close` for a `Host` RFC 9112 3.2 refuses: none on HTTP/1.1,
 *   more than one line (Node keeps only the first in `headers`, so the raw lines are counted), or a value
 *   that is no `uri-host [ ":" port ]`. Node would answer a missing one with an empty 400 of its own; the
 *   server turns that off (`requireHostHeader: false`) so the refusal is ours, as JSON. Closing is safe,
 *   and a connection whose requests disagree about their authority is not worth keeping;
 * - 400 `MALFORMED_REQUEST` with `Connection: close` for a `Transfer-Encoding` other than a lone `chunked`.
 *   RFC 9112 6.3: without chunked as the final coding a request's body length cannot be known, so the
 *   server must answer 400 and close. Node's parser stops at such a body only after the request is handed
 *   over, so without this guard the route answered 200 with keep-alive and the connection then hung with
 *   a pipelined request unanswered. `gzip, chunked` frames correctly, but names a coding this read-only
 *   API never decodes: refused the same way, and closing is always safe.
 */
export function requestRefusal(request: Pick<IncomingMessage, 'method' | 'url' | 'httpVersionMajor' | 'httpVersionMinor' | 'headers' | 'rawHeaders'>): ApiError | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new ApiError(405, 'METHOD_NOT_ALLOWED', 'the API is read-only: only GET and HEAD are allowed', { headers: { Allow: 'GET, HEAD' } });
  }
  if ((request.url ?? '').length > MAX_URL_LENGTH) return new ApiError(414, 'URI_TOO_LONG', `the request target is longer than ${MAX_URL_LENGTH} characters`);
  if (hasMalformedPercentEscape(request.url ?? '')) return new ApiError(400, 'MALFORMED_URL', 'the request target holds a malformed percent-escape');
  const hostProblem = hostHeaderProblem(request);
  if (hostProblem !== undefined) return new ApiError(400, 'MALFORMED_REQUEST', hostProblem, { headers: { Connection: 'close' } });
  const transferEncoding = request.headers['transfer-encoding'];
  if (transferEncoding !== undefined && transferEncoding.trim().toLowerCase() !== 'chunked') {
    return new ApiError(400, 'MALFORMED_REQUEST', 'a request\'s Transfer-Encoding must be chunked alone', { headers: { Connection: 'close' } });
  }
  return undefined;
}

/** RFC 3986 `uri-host [ ":" port ]`: an IP literal in brackets or a reg-name (IPv4 included), and digits. */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:.\-_~!$&'()*+,;=]+\]|[0-9A-Za-z\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/** Why the request's Host breaks RFC 9112 3.2, or undefined when it does not. */
function hostHeaderProblem(request: Pick<IncomingMessage, 'httpVersionMajor' | 'httpVersionMinor' | 'headers' | 'rawHeaders'>): string | undefined {
  const host = request.headers.host;
  if (host === undefined) return request.httpVersionMajor === 1 && request.httpVersionMinor >= 1 ? 'an HTTP/1.1 request must carry a Host header' : undefined;
  const raw = request.rawHeaders;
  let lines = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') lines += 1;
  }
  if (lines > 1) return `a request must carry one Host header, got ${lines}`;
  if (!HOST_VALUE.test(host)) return 'the Host header is not a host name or address with an optional port';
  return undefined;
}

/**
 * The guards as Koa middleware: a refused request goes no further. `metering` meters a malformed target
 * (and an address whose window is spent gets its 429 instead).
 */
export function requestGuards(metering: PublicAccessDependencies): Middleware<GatewayState> {
  return async (ctx, next) => {
    const refusal = requestRefusal(ctx.req);
    if (refusal !== undefined) {
      if (refusal.code === 'MALFORMED_URL') await meterPublic(metering, ctx.ip, { push: (name, value) => ctx.set(name, value) });
      throw refusal;
    }
    await next();
  };
}
