/** Writes a limiter decision as response headers: the X-RateLimit-* trio (spec 4.1) and IETF RateLimit fields. */
import type { LimitPolicy } from '../limits/limit-windows.ts';
import type { LimitDecision } from '../limits/rate-limiter.ts';
import type { HeaderSink } from '../pipeline/route-exchange.ts';

// A tier's policy is one frozen object for the life of a limits table: its text is built once, and so are
// the texts of the window it last reported (limit, reset, the RateLimit field's opening), which change
// only when another window is reported or a window ends. Only the remaining count and the seconds to the
// reset are written per request.
interface PolicyTexts {
  readonly policy: string;
  window: LimitDecision['window'] | undefined;
  limit: number;
  resetAt: number;
  limitText: string;
  resetText: string;
  /** `"minute";r=` */
  opening: string;
}

const policyTexts = new WeakMap<LimitPolicy, PolicyTexts>();

function textsOf(decision: LimitDecision): PolicyTexts {
  let texts = policyTexts.get(decision.policy);
  if (texts === undefined) {
    const policy = decision.policy.map((window) => `"${window.name}";q=${window.quota};w=${window.seconds}`).join(', ');
    texts = { policy, window: undefined, limit: Number.NaN, resetAt: Number.NaN, limitText: '', resetText: '', opening: '' };
    policyTexts.set(decision.policy, texts);
  }
  // The guard: any of the three differing from the texts' own makes them again.
  if (texts.window !== decision.window || texts.limit !== decision.limit || texts.resetAt !== decision.resetAt) {
    texts.window = decision.window;
    texts.limit = decision.limit;
    texts.resetAt = decision.resetAt;
    texts.limitText = String(decision.limit);
    texts.resetText = String(decision.resetAt);
    texts.opening = `"${decision.window}";r=`;
  }
  return texts;
}

/**
 * `X-RateLimit-Limit/-Remaining/-Reset` (the window closest to exhaustion), the IETF `RateLimit-Policy`
 * (every window) and `RateLimit` (the reported window) fields; they always agree.
 */
export function writeRateLimitHeaders(headers: HeaderSink, decision: LimitDecision, nowMs: number): void {
  const resetIn = Math.max(0, decision.resetAt - Math.floor(nowMs / 1000));
  const texts = textsOf(decision);
  const remaining = String(decision.remaining);
  headers.push('X-RateLimit-Limit', texts.limitText);
  headers.push('X-RateLimit-Remaining', remaining);
  headers.push('X-RateLimit-Reset', texts.resetText);
  headers.push('RateLimit-Policy', texts.policy);
  headers.push('RateLimit', `${texts.opening}${remaining};t=${resetIn}`);
}

/** The headers of `writeRateLimitHeaders` as name-value pairs. */
export function rateLimitHeaders(decision: LimitDecision, nowMs: number): [string, string][] {
  const pairs: [string, string][] = [];
  writeRateLimitHeaders({ push: (name, value) => pairs.push([name, value]) }, decision, nowMs);
  return pairs;
}
