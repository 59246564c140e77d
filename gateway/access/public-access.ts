/** Keyless routes: metered per client address; public data keeps flowing when limit storage is down. */
import type { Middleware } from 'koa';
import type { GatewayState } from '../http/gateway-state.ts';
import { RateLimitStorageError, type RateLimiter } from '../limits/rate-limiter.ts';
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
 * protects licensed data (spec 1.8), and public routes carry none.
 */
export async function meterPublic(deps: PublicAccessDependencies, address: string, headers: HeaderSink): Promise<void> {
  let decision;
  try {
    decision = await deps.limiter.consumePublic(address);
  } catch (error) {
    if (error instanceof RateLimitStorageError) return;
    throw error;
  }
  writeRateLimitHeaders(headers, decision, deps.now());
  if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
}

/** meterPublic as Koa middleware, for requests no route matched (their 404 carries rate-limit headers, spec 7). */
export function publicAccess(deps: PublicAccessDependencies): Middleware<GatewayState> {
  return async (ctx, next) => {
    await meterPublic(deps, ctx.ip, (name, value) => ctx.set(name, value));
    await next();
  };
}
