import type { LimitTier } from './limit-table.ts';
import type { LimitPolicy, WindowName } from './limit-windows.ts';

/**
 * The outcome of one metered request, carrying what the rate-limit headers need. `limit`, `remaining`
 * and `resetAt` describe the window closest to exhaustion (see `decideLimit`).
 */
export interface LimitDecision {
  readonly allowed: boolean;
  /** The reported window (IETF `RateLimit` names it); quotas alone cannot tell two equal windows apart. */
  readonly window: WindowName;
  /** Quota of the reported window (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the reported window, never negative (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** UTC epoch seconds when the reported window ends (`X-RateLimit-Reset`). */
  readonly resetAt: number;
  /** Whole seconds >= 1 until a retry can pass; only when rejected, never before the blocking window ends. */
  readonly retryAfter?: number;
  /** Every window the request counted against, enough to render IETF `RateLimit-Policy`. */
  readonly policy: LimitPolicy;
}

/**
 * Meters requests against fixed, clock-aligned minute and day windows. A rejected request consumes
 * nothing, so hammering after a 429 never burns the day quota. Limits are looked up from the tier given
 * at each call, so a key whose tier changes gets its new limits at once (its counters carry over).
 */
export interface RateLimiter {
  /** Where window counters live: this process, or Redis shared by every gateway. */
  readonly scheme: 'memory' | 'redis';
  /** Counts one licensed request of `keyId` under its current `tier`'s limits. */
  consumeKey(keyId: string, tier: LimitTier): Promise<LimitDecision>;
  /**
   * `consumeKey` answered at once, by a limiter whose counters live in this process (the memory one):
   * the caller skips a promise per request. Throws where `consumeKey` rejects. Absent when the count
   * needs I/O (Redis).
   */
  readonly consumeKeyNow?: (keyId: string, tier: LimitTier) => LimitDecision;
  /** Counts one keyless request from client `address` under the public limit. */
  consumePublic(address: string): Promise<LimitDecision>;
  /** `consumePublic` answered at once, on the same terms as `consumeKeyNow`. */
  readonly consumePublicNow?: (address: string) => LimitDecision;
  /** Releases storage connections; later calls fail with `RateLimitStorageError`. */
  close(): Promise<void>;
}

/** Window storage was unreachable, slow or failing; the gateway fails closed and answers 503. */
export class RateLimitStorageError extends Error {
  override readonly name = 'RateLimitStorageError';
}
