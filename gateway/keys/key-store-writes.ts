/**
 * The key lifecycle as Kysely queries, shared by the SQLite and PostgreSQL stores: each store runs these
 * inside its own kind of write transaction and maps driver failures to its own errors.
 */
import type { Kysely } from 'kysely';
import { digestKey, generateKey, generateKeyId } from './key-format.ts';
import { KeyStateError, KeyStoreUnavailableError, UnknownKeyIdError } from './key-errors.ts';
import { toListedKey, type ListedKey } from './key-listing.ts';
import { resolveKeyPolicy, type KeyPolicyRequest } from './key-policy.ts';
import type { ApiKeysTable, KeyStoreDatabase } from './key-store-schema.ts';
import type { IssuedKey, RevokedKey } from './key-store.ts';
import { fromStoredTier, toStoredTier } from './key-tiers.ts';

/** Every column but the digest: what a listing or a rotation reads. */
export const listedColumns = ['id', 'tier', 'cities', 'label', 'created_at', 'expires_at', 'revoked_at', 'rotated_from'] as const;

/** How a write reads the row it is about to change. */
export interface KeyWriteOptions {
  /**
   * Lock the row read before changing it (`SELECT ... FOR UPDATE`). PostgreSQL needs it so that two
   * concurrent rotations cannot both see the key active; SQLite's `BEGIN IMMEDIATE` already serialises
   * writers and has no such clause.
   */
  readonly lockRows: boolean;
}

/** The row a new key will have, after the policy check (throws `KeyPolicyError`); no secret yet. */
export function newKeyRow(request: KeyPolicyRequest, now: Date): Omit<ApiKeysTable, 'secret_digest'> {
  const policy = resolveKeyPolicy(request, now);
  return {
    id: generateKeyId(),
    tier: toStoredTier(policy.tier),
    cities: policy.cities === null ? null : JSON.stringify(policy.cities),
    label: policy.label,
    created_at: now.toISOString(),
    expires_at: policy.expiresAt?.toISOString() ?? null,
    revoked_at: null,
    rotated_from: null,
  };
}

/** Generates a secret for `row`, stores its digest, and returns the plaintext once. */
export async function issueKey(db: Kysely<KeyStoreDatabase>, row: Omit<ApiKeysTable, 'secret_digest'>): Promise<IssuedKey> {
  const tier = fromStoredTier(row.tier);
  if (tier === undefined) throw new KeyStoreUnavailableError(`key store row ${row.id} has an unknown tier`);
  const key = generateKey(tier);
  await db.insertInto('api_keys').values({ ...row, secret_digest: digestKey(key) }).execute();
  const cities = row.cities === null ? null : (JSON.parse(row.cities) as string[]);
  const { id, label, created_at: createdAt, expires_at: expiresAt, rotated_from: rotatedFrom } = row;
  return Object.freeze({ id, key, tier, cities, label, createdAt, expiresAt, rotatedFrom });
}

/** Revokes key `id` at `revokedAt`; revoking twice keeps the first time (`UnknownKeyIdError` for no such key). */
export async function revokeStoredKey(db: Kysely<KeyStoreDatabase>, id: string, revokedAt: string, options: KeyWriteOptions): Promise<RevokedKey> {
  const row = await db.selectFrom('api_keys').select('revoked_at').where('id', '=', id)
    .$if(options.lockRows, (query) => query.forUpdate()).executeTakeFirst();
  if (row === undefined) throw new UnknownKeyIdError(id);
  if (row.revoked_at !== null) return { id, revokedAt: row.revoked_at, alreadyRevoked: true };
  await db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).execute();
  return { id, revokedAt, alreadyRevoked: false };
}

/** Revokes an active key and issues its successor with the same policy and `rotated_from`. */
export async function rotateStoredKey(db: Kysely<KeyStoreDatabase>, id: string, now: Date, options: KeyWriteOptions): Promise<IssuedKey> {
  const old = await db.selectFrom('api_keys').select(listedColumns).where('id', '=', id)
    .$if(options.lockRows, (query) => query.forUpdate()).executeTakeFirst();
  if (old === undefined) throw new UnknownKeyIdError(id);
  if (old.revoked_at !== null) {
    const next = await db.selectFrom('api_keys').select('id').where('rotated_from', '=', id).executeTakeFirst();
    throw new KeyStateError(
      next === undefined ? `key ${id} is revoked and cannot be rotated` : `key ${id} was rotated to ${next.id}; rotate that one`,
    );
  }
  if (old.expires_at !== null && Date.parse(old.expires_at) <= now.getTime()) {
    throw new KeyStateError(`key ${id} expired at ${old.expires_at}; rotation keeps the expiry, so create a new key`);
  }
  await db.updateTable('api_keys').set({ revoked_at: now.toISOString() }).where('id', '=', id).execute();
  // The successor inherits tier, cities, label and expiry: rotation replaces a secret, never extends a trial.
  return issueKey(db, { ...old, id: generateKeyId(), created_at: now.toISOString(), rotated_from: id });
}

/** Every key, oldest first, as support sees it at `now`. */
export async function listStoredKeys(db: Kysely<KeyStoreDatabase>, now: Date): Promise<readonly ListedKey[]> {
  const rows = await db.selectFrom('api_keys').select(listedColumns).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => toListedKey(row, now));
}
