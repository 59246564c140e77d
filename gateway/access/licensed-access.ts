/**
 * The licensed path of a request, in the spec's order: key, tier, scope, rate limit (STYLE 7). Only a
 * request that passes all four reaches its route; the key is read from the header alone and never logged.
 * Plain functions over a RouteRequest; gateway/pipeline/route-chain.ts composes them for every licensed
 * route, for the Koa adapter and the fast path alike.
 */
import { ApiError } from '../http/api-error.ts';
import { KeyStoreUnavailableError } from '../keys/key-errors.ts';
import type { KeyLookupResult, LicensedKey } from '../keys/key-lookup.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from '../limits/rate-limiter.ts';
import { authUnavailable, keyRefusal, limitsUnavailable, rateLimited } from './access-failures.ts';
import { LICENSED_RESPONSE_HEADERS } from '../pipeline/caching-headers.ts';
import type { HeaderSink, RouteRequest } from '../pipeline/route-exchange.ts';
import { writeRateLimitHeaders } from './rate-limit-headers.ts';

/** What licensed access needs; passed in, never global. */
export interface AccessDependencies {
  /** Synchronous when the answer is at hand; a promise when a remote key store must be asked (a cache miss). */
  lookupKey: (raw: string | undefined) => KeyLookupResult | Promise<KeyLookupResult>;
  limiter: RateLimiter;
  now: () => number;
}

/** The parts of a request a scope rule may read. */
export type ScopeContext = Pick<RouteRequest, 'params' | 'querystring' | 'snapshot'>;

/** What a route asks of the key beyond being valid. */
export interface ScopeRule {
  /** The city the request reads, if any; trial keys must have it on their allowlist. */
  city?: (request: ScopeContext) => string | undefined;
  /** The route requires a city for trial keys (the change feed, spec 5.6). */
  trialCityRequired?: boolean;
  /** Paid tiers only (the federal layer's collection and records). */
  paidOnly?: (request: ScopeContext) => boolean;
}

/**
 * Meters an admitted key: writes the rate-limit headers, throws 429 when a window is spent, else writes
 * the licensed response headers, which every later answer keeps (errors included). Synchronous when the
 * limiter counts in this process (consumeKeyNow), so the embedded default adds no promise per request;
 * a promise when a shared store must be asked.
 */
export function meterAdmittedKey(deps: Pick<AccessDependencies, 'limiter' | 'now'>, key: LicensedKey, headers: HeaderSink): void | Promise<void> {
  const { limiter } = deps;
  if (limiter.consumeKeyNow !== undefined) {
    let decision: LimitDecision;
    try {
      decision = limiter.consumeKeyNow(key.id, key.tier);
    } catch (error) {
      throw failClosed(error);
    }
    applyKeyDecision(deps, decision, headers);
    return;
  }
  return limiter.consumeKey(key.id, key.tier).then(
    (decision) => applyKeyDecision(deps, decision, headers),
    (error: unknown) => {
      throw failClosed(error);
    },
  );
}

function applyKeyDecision(deps: Pick<AccessDependencies, 'now'>, decision: LimitDecision, headers: HeaderSink): void {
  writeRateLimitHeaders(headers, decision, deps.now());
  if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
  for (const [name, value] of LICENSED_RESPONSE_HEADERS) headers.push(name, value);
}

function failClosed(error: unknown): unknown {
  return error instanceof RateLimitStorageError ? limitsUnavailable() : error;
}

/**
 * Meters a refusal before the key was accepted (401, 403, a trial's 400) per client address under the
 * public limit, never against any key, so no client can burn another's quota. Throws 429 when the address
 * is spent, 503 when the limit storage fails; other failures are not metered.
 */
export async function meterRefusal(deps: Pick<AccessDependencies, 'limiter' | 'now'>, refusal: unknown, address: string, headers: HeaderSink): Promise<void> {
  if (!(refusal instanceof ApiError && (refusal.status === 401 || refusal.status === 403 || refusal.status === 400))) return;
  let decision;
  try {
    decision = await deps.limiter.consumePublic(address);
  } catch (error) {
    if (error instanceof RateLimitStorageError) throw limitsUnavailable();
    throw error;
  }
  writeRateLimitHeaders(headers, decision, deps.now());
  if (!decision.allowed) throw rateLimited(decision.retryAfter ?? 1);
}

/**
 * Key, tier and scope: the licensed key when all pass, else throws the refusal (401, 403, a trial's 400,
 * or 503 when the key store cannot be read). Meters nothing. Synchronous, for the fast path: a lookup
 * that must wait on a remote store throws, and the fast path hands the request to the Koa chain, which
 * waits for the same lookup (the store shares one query per key).
 */
export function admitKey(deps: Pick<AccessDependencies, 'lookupKey'>, raw: string | undefined, scope: ScopeRule, request: ScopeContext): LicensedKey {
  let result: KeyLookupResult | Promise<KeyLookupResult>;
  try {
    result = deps.lookupKey(raw);
  } catch (error) {
    throw asAccessFailure(error);
  }
  if (result instanceof Promise) throw new Error('the key lookup is waiting on the key store');
  return admitLookedUpKey(result, scope, request);
}

/** admitKey for the Koa chain, which may wait for a lookup that asks a remote key store. */
export async function admitKeyWhenLooked(deps: Pick<AccessDependencies, 'lookupKey'>, raw: string | undefined, scope: ScopeRule, request: ScopeContext): Promise<LicensedKey> {
  let result: KeyLookupResult;
  try {
    result = await deps.lookupKey(raw);
  } catch (error) {
    throw asAccessFailure(error);
  }
  return admitLookedUpKey(result, scope, request);
}

function asAccessFailure(error: unknown): unknown {
  return error instanceof KeyStoreUnavailableError ? authUnavailable() : error;
}

function admitLookedUpKey(result: KeyLookupResult, scope: ScopeRule, request: ScopeContext): LicensedKey {
  if (result.kind !== 'valid') throw keyRefusal(result);
  checkScope(result.key, scope, request);
  return result.key;
}

function checkScope(key: LicensedKey, scope: ScopeRule, request: ScopeContext): void {
  if (key.tier !== 'trial' || key.cities === null) return;
  const allowedCitySlugs = key.cities;
  if (scope.paidOnly?.(request)) throw new ApiError(403, 'API_TIER_FORBIDDEN', 'the national layer is reserved for paid tiers', { allowedCitySlugs });
  const city = scope.city?.(request);
  if (city === undefined || city === '') {
    if (scope.trialCityRequired) throw new ApiError(400, 'API_TRIAL_CITY_REQUIRED', 'trial keys must name an approved city', { allowedCitySlugs });
    return;
  }
  if (!allowedCitySlugs.includes(city)) {
    throw new ApiError(403, 'API_TRIAL_CITY_FORBIDDEN', 'this city is outside the trial key\'s approved cities', { allowedCitySlugs });
  }
}
