/**
 * The licensed path of a request, in the spec's order: key, tier, scope, rate limit (STYLE 7). Only a
 * request that passes all four reaches its route; the key is read from the header alone and never logged.
 * The steps are exported one by one for the fast path (gateway/fast-path), which runs the same checks.
 */
import type { Middleware } from 'koa';
import { ApiError } from '../http/api-error.ts';
import type { GatewayState } from '../http/gateway-state.ts';
import { KeyStoreUnavailableError } from '../keys/key-errors.ts';
import type { KeyLookupResult, LicensedKey } from '../keys/key-lookup.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from '../limits/rate-limiter.ts';
import { authUnavailable, keyRefusal, limitsUnavailable, rateLimited } from './access-failures.ts';
import { setRateLimitHeaders } from './rate-limit-headers.ts';

/** What licensed access needs; passed in, never global. */
export interface AccessDependencies {
  /** Synchronous when the answer is at hand; a promise when a remote key store must be asked (a cache miss). */
  lookupKey: (raw: string | undefined) => KeyLookupResult | Promise<KeyLookupResult>;
  limiter: RateLimiter;
  now: () => number;
}

/** The parts of a request a scope rule may read. */
export interface ScopeContext {
  params: Record<string, string | undefined>;
  /** The raw query string (after `?`); a rule that reads it parses it with parseQuery, bounded. */
  querystring: string;
  state: Pick<GatewayState, 'snapshot'>;
}

/** What a route asks of the key beyond being valid. */
export interface ScopeRule {
  /** The city the request reads, if any; trial keys must have it on their allowlist. */
  city?: (ctx: ScopeContext) => string | undefined;
  /** The route requires a city for trial keys (the change feed, spec 5.6). */
  trialCityRequired?: boolean;
  /** Paid tiers only (the federal layer's collection and records). */
  paidOnly?: (ctx: ScopeContext) => boolean;
}

/**
 * Checks key, tier and scope, then meters the key. Refusals before metering (401, 403) are metered per
 * client address under the public limit, never against any key, so no client can burn another's quota.
 */
export function licensedAccess(deps: AccessDependencies, scope: ScopeRule = {}): Middleware<GatewayState> {
  return async (ctx, next) => {
    let key: LicensedKey;
    try {
      key = await admitKeyWhenLooked(deps, ctx.get('x-api-key') || undefined, scope, ctx as unknown as ScopeContext);
    } catch (refusal) {
      if (refusal instanceof ApiError && (refusal.status === 401 || refusal.status === 403 || refusal.status === 400)) {
        await meterAddress(deps, ctx);
      }
      throw refusal;
    }
    const decision = await meterKey(deps, key);
    setRateLimitHeaders(ctx, decision, deps.now());
    if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
    ctx.state.key = key;
    for (const [name, value] of LICENSED_RESPONSE_HEADERS) ctx.set(name, value);
    await next();
  };
}

/** Headers of every admitted licensed response: per-key data is never stored by shared caches. */
export const LICENSED_RESPONSE_HEADERS: readonly (readonly [string, string])[] = [
  ['Cache-Control', 'private, no-store'],
  ['Vary', 'X-Api-Key'],
];

/**
 * Key, tier and scope: the licensed key when all pass, else throws the refusal (401, 403, a trial's 400,
 * or 503 when the key store cannot be read). Meters nothing. Synchronous, for the fast path: a lookup
 * that must wait on a remote store throws, and the fast path hands the request to the Koa chain, which
 * waits for the same lookup (the store shares one query per key).
 */
export function admitKey(deps: Pick<AccessDependencies, 'lookupKey'>, raw: string | undefined, scope: ScopeRule, ctx: ScopeContext): LicensedKey {
  let result: KeyLookupResult | Promise<KeyLookupResult>;
  try {
    result = deps.lookupKey(raw);
  } catch (error) {
    throw asAccessFailure(error);
  }
  if (result instanceof Promise) throw new Error('the key lookup is waiting on the key store');
  return admitLookedUpKey(result, scope, ctx);
}

/** admitKey for the Koa chain, which may wait for a lookup that asks a remote key store. */
export async function admitKeyWhenLooked(deps: Pick<AccessDependencies, 'lookupKey'>, raw: string | undefined, scope: ScopeRule, ctx: ScopeContext): Promise<LicensedKey> {
  let result: KeyLookupResult;
  try {
    result = await deps.lookupKey(raw);
  } catch (error) {
    throw asAccessFailure(error);
  }
  return admitLookedUpKey(result, scope, ctx);
}

function asAccessFailure(error: unknown): unknown {
  return error instanceof KeyStoreUnavailableError ? authUnavailable() : error;
}

function admitLookedUpKey(result: KeyLookupResult, scope: ScopeRule, ctx: ScopeContext): LicensedKey {
  if (result.kind !== 'valid') throw keyRefusal(result);
  checkScope(result.key, scope, ctx);
  return result.key;
}

/**
 * Counts one request against an admitted key; throws 503 when the limit storage fails (fail closed).
 * Synchronous when the limiter counts in this process, so a caller's `await` costs no extra promise.
 */
export function meterKey(deps: Pick<AccessDependencies, 'limiter'>, key: LicensedKey): LimitDecision | Promise<LimitDecision> {
  const { limiter } = deps;
  if (limiter.consumeKeyNow !== undefined) {
    try {
      return limiter.consumeKeyNow(key.id, key.tier);
    } catch (error) {
      throw failClosed(error);
    }
  }
  return limiter.consumeKey(key.id, key.tier).catch((error: unknown) => {
    throw failClosed(error);
  });
}

function failClosed(error: unknown): unknown {
  return error instanceof RateLimitStorageError ? limitsUnavailable() : error;
}

function checkScope(key: LicensedKey, scope: ScopeRule, ctx: ScopeContext): void {
  if (key.tier !== 'trial' || key.cities === null) return;
  const allowedCitySlugs = key.cities;
  if (scope.paidOnly?.(ctx)) throw new ApiError(403, 'API_TIER_FORBIDDEN', 'the national layer is reserved for paid tiers', { allowedCitySlugs });
  const city = scope.city?.(ctx);
  if (city === undefined || city === '') {
    if (scope.trialCityRequired) throw new ApiError(400, 'API_TRIAL_CITY_REQUIRED', 'trial keys must name an approved city', { allowedCitySlugs });
    return;
  }
  if (!allowedCitySlugs.includes(city)) {
    throw new ApiError(403, 'API_TRIAL_CITY_FORBIDDEN', 'this city is outside the trial key\'s approved cities', { allowedCitySlugs });
  }
}

async function meterAddress(deps: AccessDependencies, ctx: Parameters<Middleware<GatewayState>>[0]): Promise<void> {
  let decision;
  try {
    decision = await deps.limiter.consumePublic(ctx.ip);
  } catch (error) {
    if (error instanceof RateLimitStorageError) throw limitsUnavailable();
    throw error;
  }
  setRateLimitHeaders(ctx, decision, deps.now());
  if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
}
