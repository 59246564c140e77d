/** One structured log line per request (issue 7): what was asked, what was answered, how long it took. */
import type { Middleware } from 'koa';
import type { GatewayState } from '../http/gateway-state.ts';
import type { LicensedKey } from '../keys/key-lookup.ts';
import type { GatewayLogger } from './gateway-logger.ts';
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

/** What one request line records; `started` is the `performance.now()` of its arrival. */
export interface RequestLogFacts {
  requestId: string;
  method: string;
  route: string;
  status: number;
  started: number;
  /** The key that was admitted and metered, if any. */
  key?: LicensedKey;
}

/** The fields of a request line, in one place for the Koa chain and the fast path. */
export function requestLogLine(facts: RequestLogFacts): Record<string, unknown> {
  const { key } = facts;
  return {
    requestId: facts.requestId,
    method: facts.method,
    route: facts.route,
    status: facts.status,
    durationMs: Math.round((performance.now() - facts.started) * 1000) / 1000,
    ...(key === undefined ? {} : { keyId: key.id, tier: key.tier }),
  };
}

/**
 * Writes one request line: the one place both the Koa chain and the fast path log a request. `fastPath`
 * marks the fast path's lines, for an operator comparing latencies; otherwise the lines are alike.
 */
export function logRequestLine(log: GatewayLogger, facts: RequestLogFacts, answeredBy: { fastPath?: true } = {}): void {
  const line = requestLogLine(facts);
  log.info(answeredBy.fastPath ? { ...line, fastPath: true } : line, 'request');
}

function statusOf(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}
