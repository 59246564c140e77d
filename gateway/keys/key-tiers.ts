/**
 * Key tiers (spec 5.5): the public names used by the API, the CLI and `LicensedKey`, and the values
 * stored in the key store, where commercial keys use the internal `enterprise` identifier.
 */

/** Public tier names, in the order of the spec's limits table. */
export const keyTiers = ['trial', 'nonprofit', 'commercial'] as const;

/** A public tier name. */
export type KeyTier = (typeof keyTiers)[number];

/** Tier values as written in `api_keys.tier`. */
export const storedKeyTiers = ['trial', 'nonprofit', 'enterprise'] as const;

/** A tier value as written in `api_keys.tier`. */
export type StoredKeyTier = (typeof storedKeyTiers)[number];

const storedByPublic = {
  trial: 'trial',
  nonprofit: 'nonprofit',
  commercial: 'enterprise',
} as const satisfies Record<KeyTier, StoredKeyTier>;

const publicByStored = {
  trial: 'trial',
  nonprofit: 'nonprofit',
  enterprise: 'commercial',
} as const satisfies Record<StoredKeyTier, KeyTier>;

/** Narrows user input to a public tier name. */
export function isKeyTier(value: string): value is KeyTier {
  return (keyTiers as readonly string[]).includes(value);
}

/** The value stored for a public tier (commercial is stored as `enterprise`). */
export function toStoredTier(tier: KeyTier): StoredKeyTier {
  return storedByPublic[tier];
}

/** The public tier of a stored value, or `undefined` when the stored value is not a known tier. */
export function fromStoredTier(stored: string): KeyTier | undefined {
  return (storedKeyTiers as readonly string[]).includes(stored)
    ? publicByStored[stored as StoredKeyTier]
    : undefined;
}
