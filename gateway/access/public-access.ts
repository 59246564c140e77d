/** Keyless routes: metered per client address; public data keeps flowing when limit storage is down. */
import type { Middleware } from 'koa';
import type { GatewayState } from '../http/gateway-state.ts';
import { RateLimitStorageError, type RateLimiter } from '../limits/rate-limiter.ts';
import { rateLimited } from './access-failures.ts';
import { setRateLimitHeaders } from './rate-limit-headers.ts';

/**
 * Meters the client address (`ctx.ip`, which honors X-Forwarded-For only when the app trusts a proxy).
 * A storage fault serves the public response without rate-limit headers: fail-closed protects licensed
 * data (spec 1.8), and public routes carry none.
 */
export function publicAccess(deps: { limiter: RateLimiter; now: () => number; onStorageFault?: (error: Error) => void }): Middleware<GatewayState> {
  return async (ctx, next) => {
    try {
      const decision = await deps.limiter.consumePublic(ctx.ip);
      setRateLimitHeaders(ctx, decision, deps.now());
      if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
    } catch (error) {
      if (!(error instanceof RateLimitStorageError)) throw error;
      deps.onStorageFault?.(error);
    }
    await next();
  };
}
