/** Feeds every answered request into the request counter, latency histogram and bytes-by-coding counter. */
import type { Middleware } from 'koa';
import type { ResponseCoding } from '../encoding/negotiate-encoding.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';
import { routeTemplate } from './route-label.ts';

/** Records route template, method class, status class and duration; outside the error renderer, like the log. */
export function measureRequests(metrics: GatewayMetrics): Middleware<GatewayState> {
  return async (ctx, next) => {
    const started = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (error) {
      const thrown = (error as { status?: unknown } | null)?.status;
      status = typeof thrown === 'number' && thrown >= 400 && thrown <= 599 ? thrown : 500;
      throw error;
    } finally {
      metrics.observeRequest({ route: routeTemplate(ctx), method: ctx.method, status: status ?? ctx.status, seconds: (performance.now() - started) / 1000 });
      // What Koa writes next: the body Content-Length names, none for HEAD or a body-less status.
      const coding = (ctx.response.get('Content-Encoding') || 'identity') as ResponseCoding;
      metrics.countResponseBytes(coding, ctx.method === 'HEAD' || status !== undefined ? 0 : (ctx.response.length ?? 0));
    }
  };
}
