/** Bounds the request target: a very long URL is refused before any route parses it. */
import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { GatewayState } from './gateway-state.ts';

/**
 * The longest request target (path and query) served. Node refuses a request line and headers past
 * 16 KiB by itself (see harden-server.ts); this bound is tighter, so it is the one clients meet.
 */
export const MAX_URL_LENGTH = 8 * 1024;

/** Answers 414 `URI_TOO_LONG` to a request target longer than `maxLength` characters. */
export function rejectLongUrls(maxLength: number = MAX_URL_LENGTH): Middleware<GatewayState> {
  return async (ctx, next) => {
    if (ctx.url.length > maxLength) throw new ApiError(414, 'URI_TOO_LONG', `the request target is longer than ${maxLength} characters`);
    await next();
  };
}
