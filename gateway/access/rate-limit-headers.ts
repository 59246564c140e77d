/** Writes a limiter decision as response headers: the X-RateLimit-* trio (spec 4.1) and IETF RateLimit fields. */
import type { LimitPolicy } from '../limits/limit-windows.ts';
import type { LimitDecision } from '../limits/rate-limiter.ts';
import type { HeaderSink } from '../pipeline/route-exchange.ts';

// A tier's policy is one frozen object for the life of a limits table, so its text is built once.
const policyTexts = new WeakMap<LimitPolicy, string>();

function policyText(policy: LimitPolicy): string {
  let text = policyTexts.get(policy);
  if (text === undefined) {
    text = policy.map((window) => `"${window.name}";q=${window.quota};w=${window.seconds}`).join(', ');
    policyTexts.set(policy, text);
  }
  return text;
}

/**
 * `X-RateLimit-Limit/-Remaining/-Reset` (the window closest to exhaustion), the IETF `RateLimit-Policy`
 * (every window) and `RateLimit` (the reported window) fields; they always agree.
 */
export function writeRateLimitHeaders(headers: HeaderSink, decision: LimitDecision, nowMs: number): void {
  const resetIn = Math.max(0, decision.resetAt - Math.floor(nowMs / 1000));
  headers('X-RateLimit-Limit', String(decision.limit));
  headers('X-RateLimit-Remaining', String(decision.remaining));
  headers('X-RateLimit-Reset', String(decision.resetAt));
  headers('RateLimit-Policy', policyText(decision.policy));
  headers('RateLimit', `"${decision.window}";r=${decision.remaining};t=${resetIn}`);
}

/** The headers of `writeRateLimitHeaders` as name-value pairs. */
export function rateLimitHeaders(decision: LimitDecision, nowMs: number): [string, string][] {
  const pairs: [string, string][] = [];
  writeRateLimitHeaders((name, value) => pairs.push([name, value]), decision, nowMs);
  return pairs;
}
