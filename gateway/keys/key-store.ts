/**
 * What every API key store offers, whatever holds the keys: the embedded SQLite file (sqlite-key-store.ts)
 * or a PostgreSQL database (postgres-key-store.ts). Both implement it over the writes they share
 * (key-store-writes.ts).
 */
import type { ListedKey } from './key-listing.ts';
import type { KeyLookupResult } from './key-lookup.ts';
import type { KeyPolicyRequest } from './key-policy.ts';
import type { KeyTier } from './key-tiers.ts';

/** A newly issued plaintext key with its record; `key` is shown once and never stored. */
export interface IssuedKey {
  readonly id: string;
  readonly key: string;
  readonly tier: KeyTier;
  readonly cities: readonly string[] | null;
  readonly label: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly rotatedFrom: string | null;
}

/** The outcome of a revocation; revoking twice keeps the first time. */
export interface RevokedKey {
  readonly id: string;
  readonly revokedAt: string;
  readonly alreadyRevoked: boolean;
}

/** Operations on the key store; every failure to read or write it is a `KeyStoreUnavailableError`. */
export interface KeyStore {
  /** Issues a key after checking the policy (`KeyPolicyError` otherwise). */
  createKey(request: KeyPolicyRequest): Promise<IssuedKey>;
  /** Revokes a key at once (`UnknownKeyIdError` for an unknown id). */
  revokeKey(id: string): Promise<RevokedKey>;
  /** Revokes an active key and issues its successor under a new id with `rotatedFrom`, atomically. */
  rotateKey(id: string): Promise<IssuedKey>;
  /** Every key, oldest first, without secrets or digests. */
  listKeys(): Promise<readonly ListedKey[]>;
  /**
   * The request-path check; never touches the database for a malformed key. Synchronous whenever the
   * answer is at hand (always for SQLite); a promise only when a remote store must be asked.
   */
  lookupKey(raw: string | undefined): KeyLookupResult | Promise<KeyLookupResult>;
  close(): Promise<void>;
}
