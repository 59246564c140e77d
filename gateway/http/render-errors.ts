/** Turns every failure below it into a JSON error body with the spec's status and `code` (spec 7). */
import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { GatewayState } from './gateway-state.ts';

/** Where unexpected errors are reported; never to the client. */
export type ErrorLogger = (error: unknown, context: { requestId: string; path: string }) => void;

/**
 * Renders ApiError as its body; anything else as a generic 500 that is logged, not leaked.
 * Errors never carry `X-Dataset-Revision`, and are never cached.
 */
export function renderErrors(logError: ErrorLogger): Middleware<GatewayState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : new ApiError(500, 'INTERNAL_ERROR', 'internal error');
      if (!(caught instanceof ApiError)) logError(caught, { requestId: ctx.state.requestId, path: ctx.path });
      ctx.status = error.status;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(error.toBody());
      ctx.remove('X-Dataset-Revision');
      ctx.remove('ETag');
      ctx.set('Cache-Control', 'no-store');
      if (error.extras.retryAfter !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(error.extras.retryAfter))));
      for (const [name, value] of Object.entries(error.extras.headers ?? {})) ctx.set(name, value);
    }
  };
}
