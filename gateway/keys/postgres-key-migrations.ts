/**
 * The PostgreSQL key store's layout, created and upgraded by Kysely's migrator. Several gateway hosts
 * and `hra keys` runs may migrate at once: the migrator holds a transaction-scoped advisory lock while it
 * works, so exactly one of them applies each step and the others find it done.
 *
 * `api_keys` keeps the SQLite store's columns and text encodings (ISO 8601 UTC strings, a JSON array of
 * cities), so both stores share the row types, the verdict and the listing code. Every statement that
 * changes `api_keys` (the CLI's or an operator's SQL) bumps `key_store_state.version` and notifies
 * `key_store_changed` at commit: that is how each gateway's row cache learns it is stale.
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { KeyStoreUnavailableError } from './key-errors.ts';
import type { KeyStoreDatabase } from './key-store-schema.ts';

/** The Kysely view of the PostgreSQL key store: the shared `api_keys` plus what only sharing needs. */
export interface PostgresKeyStoreDatabase extends KeyStoreDatabase {
  /** One row; `version` (a BIGINT, read as text) moves on every change to `api_keys`. */
  key_store_state: { singleton: boolean; version: string };
  gateway_secrets: { name: string; value: Buffer };
}

/** The channel every change to `api_keys` is announced on, with the new store version as payload. */
export const keyChangeChannel = 'key_store_changed';

/** The trigger migration 0001 puts on `api_keys` to announce its changes; while it is absent or disabled, nothing is announced. */
export const keyChangeTrigger = 'api_keys_changed';

// Each migration spells out its DDL instead of reusing key-store-schema.ts: a migration that has run on a
// shared database must never change, whatever later happens to the SQLite layout.
const migrations: Readonly<Record<string, Migration>> = {
  '0001-api-keys': {
    async up(db) {
      await sql`
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY NOT NULL,
          secret_digest TEXT NOT NULL UNIQUE,
          tier TEXT NOT NULL CHECK (tier IN ('trial', 'nonprofit', 'enterprise')),
          cities TEXT,
          label TEXT,
          created_at TEXT NOT NULL,
          expires_at TEXT,
          revoked_at TEXT,
          rotated_from TEXT REFERENCES api_keys (id)
        )`.execute(db);
      await sql`CREATE INDEX api_keys_rotated_from ON api_keys (rotated_from)`.execute(db);
      // One row: a counter every gateway can poll cheaply instead of re-reading the keys it caches.
      await sql`
        CREATE TABLE key_store_state (
          singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
          version BIGINT NOT NULL
        )`.execute(db);
      await sql`INSERT INTO key_store_state (version) VALUES (0)`.execute(db);
      await sql`
        CREATE FUNCTION key_store_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE next_version BIGINT;
        BEGIN
          UPDATE key_store_state SET version = version + 1 RETURNING version INTO next_version;
          PERFORM pg_notify(${sql.lit(keyChangeChannel)}, next_version::text);
          RETURN NULL;
        END
        $$`.execute(db);
      // Per statement, TRUNCATE included: a bulk UPDATE written by hand is announced like a CLI revoke.
      await sql`
        CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION key_store_changed()`.execute(db);
      // Secrets every gateway must agree on, such as the one signing change-feed cursors.
      await sql`CREATE TABLE gateway_secrets (name TEXT PRIMARY KEY NOT NULL, value BYTEA NOT NULL)`.execute(db);
    },
  },
};

/**
 * Applies the migrations this build knows; throws `KeyStoreUnavailableError` naming `where` when one fails
 * or the database holds a migration this build does not know (a newer gateway migrated it).
 */
export async function migratePostgresKeyStore(db: Kysely<unknown>, where: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'key_store_migration',
    migrationLockTableName: 'key_store_migration_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error === undefined) return;
  const message = error instanceof Error ? error.message : String(error);
  throw new KeyStoreUnavailableError(`key store ${where} cannot be migrated: ${message}`, { cause: error });
}
