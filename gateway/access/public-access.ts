/** Keyless routes: metered per client address; public data keeps flowing when limit storage is down. */
import type { Middleware } from 'koa';
import type { GatewayState } from '../http/gateway-state.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from '../limits/rate-limiter.ts';
import type { HeaderSink } from '../pipeline/route-exchange.ts';
import { rateLimited } from './access-failures.ts';
import { writeRateLimitHeaders } from './rate-limit-headers.ts';

/** What public metering needs. */
export interface PublicAccessDependencies {
  limiter: RateLimiter;
  now: () => number;
}

/**
 * Meters one keyless request of the client `address`: writes the rate-limit headers, throws 429 when the
 * address is spent. A storage fault lets the request through without rate-limit headers: fail-closed
 * protects licensed data (spec 1.8), and public routes carry none. Synchronous when the limiter counts in
 * this process (`consumePublicNow`), a promise when a shared store must be asked.
 */
export function meterPublic(deps: PublicAccessDependencies, address: string, headers: HeaderSink): void | Promise<void> {
  const { limiter } = deps;
  if (limiter.consumePublicNow !== undefined) {
    let decision: LimitDecision;
    try {
      decision = limiter.consumePublicNow(address);
    } catch (error) {
      return letThroughOnStorageFault(error);
    }
    return applyPublicDecision(deps, decision, headers);
  }
  return limiter.consumePublic(address).then((decision) => applyPublicDecision(deps, decision, headers), letThroughOnStorageFault);
}

function applyPublicDecision(deps: PublicAccessDependencies, decision: LimitDecision, headers: HeaderSink): void {
  writeRateLimitHeaders(headers, decision, deps.now());
  if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
}

function letThroughOnStorageFault(error: unknown): void {
  if (!(error instanceof RateLimitStorageError)) throw error;
}

/** meterPublic as Koa middleware, for requests no route matched (their 404 carries rate-limit headers, spec 7). */
export function publicAccess(deps: PublicAccessDependencies): Middleware<GatewayState> {
  return async (ctx, next) => {
    await meterPublic(deps, ctx.ip, { push: (name, value) => ctx.set(name, value) });
    await next();
  };
}
