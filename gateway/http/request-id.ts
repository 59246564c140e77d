/** Echoes a caller's safe `X-Request-ID` or generates one (spec 8). */
import type { Middleware } from 'koa';
import { containsKeyShape } from '../keys/key-format.ts';
import type { GatewayState } from './gateway-state.ts';
import { randomRequestUuid } from './uuid-source.ts';

/** Spec 8: 8 to 80 characters, first an ASCII letter or digit, then letters, digits, `.`, `_`, `:`, `-`. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,79}$/;

/**
 * Whether an offered `X-Request-ID` is safe to adopt: spec 8's characters, and no API key's shape anywhere in it.
 * A key fits spec 8's characters, and a client or proxy that puts one there by mistake would otherwise
 * have its secret written to every log line of the request; spec 8 replaces an unsafe value, and this one is.
 */
export function isSafeRequestId(offered: string): boolean {
  return SAFE_REQUEST_ID.test(offered) && !containsKeyShape(offered);
}

/** The request id of a request: the offered `X-Request-ID` when it is safe, else a fresh UUID. */
export function requestIdFor(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && isSafeRequestId(offered) ? offered : randomRequestUuid();
}

/** Sets `ctx.state.requestId` and the `X-Request-ID` header before anything else can fail. */
export function requestId(): Middleware<GatewayState> {
  return async (ctx, next) => {
    const id = requestIdFor(ctx.req.headers['x-request-id']);
    ctx.state.requestId = id;
    ctx.set('X-Request-ID', id);
    await next();
  };
}
