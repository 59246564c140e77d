/**
 * The key store's table, as a Kysely database interface and as the DDL that creates it. The schema
 * version lives in `PRAGMA user_version` so a later layout can migrate stores written by this one.
 */
import type Database from 'better-sqlite3';
import { KeyStoreUnavailableError } from './key-errors.ts';
import type { StoredKeyTier } from './key-tiers.ts';

/** One row of `api_keys`; times are ISO 8601 UTC strings, `cities` a JSON array of slugs or null. */
export interface ApiKeysTable {
  id: string;
  /** SHA-256 hex of the plaintext key; the plaintext is never stored. */
  secret_digest: string;
  tier: StoredKeyTier;
  cities: string | null;
  label: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  /** The id of the key this one replaced by rotation, or null for a freshly created key. */
  rotated_from: string | null;
}

/** The Kysely view of the key store. */
export interface KeyStoreDatabase {
  api_keys: ApiKeysTable;
}

/** The layout version this code writes and reads. */
export const keyStoreSchemaVersion = 1;

/** Creates the version-1 layout; the UNIQUE constraint gives the digest lookup its index. */
export const keyStoreDdl = `
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY NOT NULL,
  secret_digest TEXT NOT NULL UNIQUE,
  tier TEXT NOT NULL CHECK (tier IN ('trial', 'nonprofit', 'enterprise')),
  cities TEXT,
  label TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  rotated_from TEXT REFERENCES api_keys (id)
);
CREATE INDEX IF NOT EXISTS api_keys_rotated_from ON api_keys (rotated_from);
`;

/**
 * Brings an open store to the current layout: creates it when empty and `create` is set (read-write only),
 * and refuses a store written by a newer version or one that was never initialised and may not be created.
 */
export function migrateKeyStore(db: Database.Database, path: string, options: { create: boolean }): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version === keyStoreSchemaVersion) return;
  if (version > keyStoreSchemaVersion) {
    throw new KeyStoreUnavailableError(
      `key store ${path} has schema version ${version}; this build reads up to ${keyStoreSchemaVersion}`,
    );
  }
  if (db.readonly || !options.create) {
    throw new KeyStoreUnavailableError(`key store ${path} is empty or not initialised (create a key with hra keys create)`);
  }
  // IMMEDIATE takes the write lock up front, so two CLIs initialising one file cannot interleave.
  db.transaction(() => {
    db.exec(keyStoreDdl);
    db.pragma(`user_version = ${keyStoreSchemaVersion}`);
  }).immediate();
}
