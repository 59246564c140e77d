/**
 * The verdict on a presented key, and the only place a `LicensedKey` is minted. The store finds the
 * row; `classifyKeyRow` decides what it means at the injected time.
 */
import { checkStoredTrialPolicy } from './key-policy.ts';
import type { ApiKeysTable } from './key-store-schema.ts';
import { fromStoredTier, type KeyTier } from './key-tiers.ts';

declare const licensedKeyBrand: unique symbol;

/** A key that passed every check at request time; only the key store's lookup can produce one. */
export type LicensedKey = {
  readonly id: string;
  /** The key's current tier (public name); limits are resolved from it at each request (spec 3). */
  readonly tier: KeyTier;
  /** Trial keys: the 1 to 5 approved city slugs. Paid keys: null, the whole licensed scope. */
  readonly cities: readonly string[] | null;
  /** ISO 8601 UTC expiry, or null for a paid key that never expires. */
  readonly expiresAt: string | null;
} & { readonly [licensedKeyBrand]: true };

/**
 * The answer of `KeyStore.lookupKey`. The gateway maps it to spec 5.3-5.4: `missing` is 401
 * API_KEY_REQUIRED; `malformed` and `unknown` are 401 INVALID_API_KEY; `revoked` and `expired` are 403;
 * `trial-policy-invalid` is 403 API_TRIAL_POLICY_INVALID. A store failure is thrown instead (503).
 */
export type KeyLookupResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'revoked'; readonly id: string }
  | { readonly kind: 'expired'; readonly id: string }
  | { readonly kind: 'trial-policy-invalid'; readonly id: string }
  | { readonly kind: 'valid'; readonly key: LicensedKey };

/** What one stored row means at a given time; `corrupt` is a row that breaks the store's own invariants. */
export type KeyRowVerdict =
  | Extract<KeyLookupResult, { kind: 'revoked' | 'expired' | 'trial-policy-invalid' | 'valid' }>
  | { readonly kind: 'corrupt'; readonly id: string; readonly reason: string };

/** The columns a verdict needs (never the digest). */
export type KeyRowForVerdict = Pick<ApiKeysTable, 'id' | 'cities' | 'created_at' | 'expires_at' | 'revoked_at'> & {
  readonly tier: string;
};

/**
 * Judges a stored key at `now`, in this order: revoked, then expired, then the trial policy (no cities,
 * more than 5, invalid slugs, missing expiry or a lifetime over 30 days), then valid.
 */
export function classifyKeyRow(row: KeyRowForVerdict, now: Date): KeyRowVerdict {
  const { id } = row;
  if (row.revoked_at !== null) return { kind: 'revoked', id };
  const tier = fromStoredTier(row.tier);
  if (tier === undefined) return { kind: 'corrupt', id, reason: `unknown tier ${JSON.stringify(row.tier)}` };
  const createdAt = new Date(row.created_at);
  if (Number.isNaN(createdAt.getTime())) return { kind: 'corrupt', id, reason: 'unreadable created_at' };
  const expiresAt = row.expires_at === null ? null : new Date(row.expires_at);
  if (expiresAt !== null && Number.isNaN(expiresAt.getTime())) {
    return { kind: 'corrupt', id, reason: 'unreadable expires_at' };
  }
  if (expiresAt !== null && now.getTime() >= expiresAt.getTime()) return { kind: 'expired', id };
  let cities: readonly string[] | null = null;
  if (tier === 'trial') {
    const trialCities = checkStoredTrialPolicy({ cities: row.cities, createdAt, expiresAt });
    if (trialCities === undefined) return { kind: 'trial-policy-invalid', id };
    cities = trialCities;
  } else if (row.cities !== null) {
    // A paid key is never city-restricted; a stored list means the row was written outside this module.
    return { kind: 'corrupt', id, reason: `${tier} key has a city list` };
  }
  const key = Object.freeze({ id, tier, cities, expiresAt: expiresAt?.toISOString() ?? null }) as LicensedKey;
  return { kind: 'valid', key };
}
