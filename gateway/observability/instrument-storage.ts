/**
 * Counts rate-limit rejections and storage faults where they happen, by wrapping the limiter and the key
 * lookup the app is given; the access middleware stays unaware of metrics.
 */
import type { AccessDependencies } from '../access/licensed-access.ts';
import { KeyStoreUnavailableError } from '../keys/key-errors.ts';
import type { LimitTier } from '../limits/limit-table.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from '../limits/rate-limiter.ts';
import type { GatewayMetrics, RejectionScope } from './gateway-metrics.ts';

/** The same limiter, counting its refusals (by scope) and its storage faults. */
export function instrumentLimiter(limiter: RateLimiter, metrics: GatewayMetrics): RateLimiter {
  const counted = async (scope: RejectionScope, consume: () => Promise<LimitDecision>): Promise<LimitDecision> => {
    let decision: LimitDecision;
    try {
      decision = await consume();
    } catch (error) {
      if (error instanceof RateLimitStorageError) metrics.countStorageFault('rate_limit');
      throw error;
    }
    if (!decision.allowed) metrics.countRejection(scope);
    return decision;
  };
  const { consumeKeyNow } = limiter;
  return {
    scheme: limiter.scheme,
    consumeKey: (keyId, tier) => counted('key', () => limiter.consumeKey(keyId, tier)),
    // The synchronous count, counted the same way, when the limiter has one.
    ...(consumeKeyNow === undefined ? {} : {
      consumeKeyNow: (keyId: string, tier: LimitTier) => {
        let decision: LimitDecision;
        try {
          decision = consumeKeyNow(keyId, tier);
        } catch (error) {
          if (error instanceof RateLimitStorageError) metrics.countStorageFault('rate_limit');
          throw error;
        }
        if (!decision.allowed) metrics.countRejection('key');
        return decision;
      },
    }),
    consumePublic: (address) => counted('public', () => limiter.consumePublic(address)),
    close: () => limiter.close(),
  };
}

/** The same key lookup, counting key-store faults. */
export function instrumentKeyLookup(lookupKey: AccessDependencies['lookupKey'], metrics: GatewayMetrics): AccessDependencies['lookupKey'] {
  const count = (error: unknown) => {
    if (error instanceof KeyStoreUnavailableError) metrics.countStorageFault('key_store');
  };
  return (raw) => {
    try {
      const result = lookupKey(raw);
      // Counted on a side branch, so the promise handed on is the store's own (never a new unhandled one).
      if (result instanceof Promise) result.catch(count);
      return result;
    } catch (error) {
      count(error);
      throw error;
    }
  };
}
