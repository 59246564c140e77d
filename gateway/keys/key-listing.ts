/**
 * The support view of a stored key: everything an operator may see, never the secret or its digest.
 */
import { classifyKeyRow, type KeyRowForVerdict } from './key-lookup.ts';
import type { ApiKeysTable } from './key-store-schema.ts';
import { fromStoredTier, type KeyTier } from './key-tiers.ts';

/** Where a key stands now: the lookup verdict without the key itself. */
export const keyStatuses = ['active', 'revoked', 'expired', 'trial-policy-invalid', 'corrupt'] as const;

/** Where a key stands now. */
export type KeyStatus = (typeof keyStatuses)[number];

/** One key as `hra keys list` shows it; times are ISO 8601 UTC strings. */
export interface ListedKey {
  readonly id: string;
  /** The public tier name; the raw stored value only for a corrupt row with an unknown tier. */
  readonly tier: KeyTier | string;
  readonly cities: readonly string[] | null;
  readonly label: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly rotatedFrom: string | null;
  readonly status: KeyStatus;
}

/** The columns a listing reads: every column but `secret_digest`. */
export type KeyRowForListing = Omit<ApiKeysTable, 'secret_digest' | 'tier'> & KeyRowForVerdict;

/** Builds the support view of one row at `now`. */
export function toListedKey(row: KeyRowForListing, now: Date): ListedKey {
  const verdict = classifyKeyRow(row, now);
  const status: KeyStatus = verdict.kind === 'valid' ? 'active' : verdict.kind;
  return {
    id: row.id,
    tier: fromStoredTier(row.tier) ?? row.tier,
    cities: verdict.kind === 'valid' ? verdict.key.cities : readCities(row.cities),
    label: row.label,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    rotatedFrom: row.rotated_from,
    status,
  };
}

// Shows whatever a non-valid row stores, so support can see why a trial policy is broken.
function readCities(json: string | null): readonly string[] | null {
  if (json === null) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map(String) : null;
  } catch {
    return null;
  }
}
