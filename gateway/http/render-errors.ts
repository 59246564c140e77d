/** Turns every failure below it into a JSON error body with the spec's status and `code` (spec 7). */
import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { GatewayState } from './gateway-state.ts';

/** Where unexpected errors are reported; never to the client. */
export type ErrorLogger = (error: unknown, context: { requestId: string; path: string }) => void;

/** The body and headers of an error response; the Koa renderer and the fast path both send these. */
export interface ErrorResponse {
  status: number;
  body: string;
  /** Beyond Content-Type and Content-Length, which the sender sets. */
  headers: [string, string][];
}

/** What an error, expected or not, answers: an unexpected one is a generic 500 that leaks nothing. */
export function errorResponse(caught: unknown): ErrorResponse {
  const error = caught instanceof ApiError ? caught : new ApiError(500, 'INTERNAL_ERROR', 'internal error');
  const headers: [string, string][] = [['Cache-Control', 'no-store']];
  if (error.extras.retryAfter !== undefined) headers.push(['Retry-After', String(Math.max(1, Math.ceil(error.extras.retryAfter)))]);
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) headers.push([name, value]);
  return { status: error.status, body: JSON.stringify(error.toBody()), headers };
}

/**
 * Renders ApiError as its body; anything else as a generic 500 that is logged, not leaked.
 * Errors never carry `X-Dataset-Revision`, and are never cached.
 */
export function renderErrors(logError: ErrorLogger): Middleware<GatewayState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      if (!(caught instanceof ApiError)) logError(caught, { requestId: ctx.state.requestId, path: ctx.path });
      const response = errorResponse(caught);
      ctx.status = response.status;
      ctx.type = 'application/json';
      ctx.body = response.body;
      ctx.remove('X-Dataset-Revision');
      ctx.remove('ETag');
      for (const [name, value] of response.headers) ctx.set(name, value);
    }
  };
}
