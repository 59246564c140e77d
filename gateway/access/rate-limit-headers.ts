/** Writes a limiter decision as response headers: the X-RateLimit-* trio (spec 4.1) and IETF RateLimit fields. */
import type { Context } from 'koa';
import type { LimitDecision } from '../limits/rate-limiter.ts';

/**
 * `X-RateLimit-Limit/-Remaining/-Reset` (the window closest to exhaustion), the IETF `RateLimit-Policy`
 * (every window) and `RateLimit` (the reported window) fields, as name-value pairs; they always agree.
 */
export function rateLimitHeaders(decision: LimitDecision, nowMs: number): [string, string][] {
  const resetIn = Math.max(0, decision.resetAt - Math.floor(nowMs / 1000));
  return [
    ['X-RateLimit-Limit', String(decision.limit)],
    ['X-RateLimit-Remaining', String(decision.remaining)],
    ['X-RateLimit-Reset', String(decision.resetAt)],
    ['RateLimit-Policy', decision.policy.map((window) => `"${window.name}";q=${window.quota};w=${window.seconds}`).join(', ')],
    ['RateLimit', `"${decision.window}";r=${decision.remaining};t=${resetIn}`],
  ];
}

/** Sets the headers of `rateLimitHeaders` on a Koa response. */
export function setRateLimitHeaders(ctx: Context, decision: LimitDecision, nowMs: number): void {
  for (const [name, value] of rateLimitHeaders(decision, nowMs)) ctx.set(name, value);
}
