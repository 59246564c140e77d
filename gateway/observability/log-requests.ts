/** One structured log line per request (issue 7): what was asked, what was answered, how long it took. */
import type { Middleware } from 'koa';
import type { GatewayState } from '../http/gateway-state.ts';
import type { GatewayLogger } from './gateway-logger.ts';
import { logRequestLine } from './request-log-line.ts';
import { routeTemplate } from './route-label.ts';

/**
 * Logs, after the response is decided: request id, method, route template, status, duration in
 * milliseconds, and the key's id and tier when a key was validated. Never the key, a header or the
 * query string. Sits outside the error renderer, so it sees the status the client gets.
 */
export function logRequests(log: GatewayLogger): Middleware<GatewayState> {
  return async (ctx, next) => {
    const started = performance.now();
    let escaped: unknown;
    try {
      await next();
    } catch (error) {
      escaped = error;
      throw error;
    } finally {
      const { key } = ctx.state;
      // An error escaping the renderer is answered by Koa itself, with its status or 500.
      const status = escaped === undefined ? ctx.status : statusOf(escaped);
      logRequestLine(log, { requestId: ctx.state.requestId, method: ctx.method, route: routeTemplate(ctx), status, started, key });
    }
  };
}

function statusOf(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}
