/**
 * Counts rate-limit rejections and storage faults where they happen, by wrapping the limiter and the key
 * lookup the app is given; the access middleware stays unaware of metrics.
 */
import type { AccessDependencies } from '../access/licensed-access.ts';
import { KeyStoreUnavailableError } from '../keys/key-errors.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from '../limits/rate-limiter.ts';
import type { GatewayMetrics, RejectionScope } from './gateway-metrics.ts';

/** The same limiter, counting its refusals (by scope) and its storage faults. */
export function instrumentLimiter(limiter: RateLimiter, metrics: GatewayMetrics): RateLimiter {
  const fault = (error: unknown): never => {
    if (error instanceof RateLimitStorageError) metrics.countStorageFault('rate_limit');
    throw error;
  };
  const tally = (scope: RejectionScope, decision: LimitDecision): LimitDecision => {
    if (!decision.allowed) metrics.countRejection(scope);
    return decision;
  };
  // The synchronous counts, counted the same way, when the limiter has them.
  const atOnce = <A extends unknown[]>(scope: RejectionScope, count: (...args: A) => LimitDecision) => (...args: A): LimitDecision => {
    let decision: LimitDecision;
    try {
      decision = count(...args);
    } catch (error) {
      return fault(error);
    }
    return tally(scope, decision);
  };
  const { consumeKeyNow, consumePublicNow } = limiter;
  return {
    scheme: limiter.scheme,
    consumeKey: (keyId, tier) => limiter.consumeKey(keyId, tier).then((decision) => tally('key', decision), fault),
    ...(consumeKeyNow === undefined ? {} : { consumeKeyNow: atOnce('key', consumeKeyNow) }),
    consumePublic: (address) => limiter.consumePublic(address).then((decision) => tally('public', decision), fault),
    ...(consumePublicNow === undefined ? {} : { consumePublicNow: atOnce('public', consumePublicNow) }),
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
