/** Writes a limiter decision as response headers: the X-RateLimit-* trio (spec 4.1) and IETF RateLimit fields. */
import type { Context } from 'koa';
import type { LimitDecision } from '../limits/rate-limiter.ts';

/**
 * Sets `X-RateLimit-Limit/-Remaining/-Reset` (the window closest to exhaustion), the IETF
 * `RateLimit-Policy` (every window) and `RateLimit` (the reported window) fields; they always agree.
 */
export function setRateLimitHeaders(ctx: Context, decision: LimitDecision, nowMs: number): void {
  const resetIn = Math.max(0, decision.resetAt - Math.floor(nowMs / 1000));
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetAt));
  ctx.set('RateLimit-Policy', decision.policy.map((window) => `"${window.name}";q=${window.quota};w=${window.seconds}`).join(', '));
  ctx.set('RateLimit', `"${decision.window}";r=${decision.remaining};t=${resetIn}`);
}
