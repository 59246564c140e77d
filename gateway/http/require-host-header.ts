/** RFC 9112 3.2: an HTTP/1.1 request without a `Host` header is refused, as a JSON error like any other. */
import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { GatewayState } from './gateway-state.ts';

/**
 * Answers 400 `MALFORMED_REQUEST` to an HTTP/1.1 request lacking `Host`. Node would answer it with an
 * empty 400 of its own; the server turns that off (`requireHostHeader: false`) so the refusal is ours.
 */
export function requireHostHeader(): Middleware<GatewayState> {
  return async (ctx, next) => {
    if (ctx.req.httpVersionMajor === 1 && ctx.req.httpVersionMinor >= 1 && ctx.req.headers.host === undefined) {
      throw new ApiError(400, 'MALFORMED_REQUEST', 'an HTTP/1.1 request must carry a Host header');
    }
    await next();
  };
}
