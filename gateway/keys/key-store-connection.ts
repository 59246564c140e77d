/**
 * One open connection to a key store file, with the two statements the request path runs on it. The key
 * store opens one at start and, when the file at its path is replaced or rewritten, another on the new
 * file (follow-key-store-file.ts).
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { toKeyStoreError } from './key-errors.ts';
import type { KeyRowForVerdict } from './key-lookup.ts';
import { migrateKeyStore, type KeyStoreDatabase } from './key-store-schema.ts';

/** A connection and what runs on it; `db.close()` releases all of it (Kysely holds nothing else). */
export interface KeyStoreConnection {
  readonly db: Database.Database;
  /** Writes and listings. */
  readonly kysely: Kysely<KeyStoreDatabase>;
  /** The request-path lookup by digest, prepared once. */
  readonly lookup: Database.Statement<[string], KeyRowForVerdict>;
  /** `PRAGMA data_version`: moves when another connection commits to this file. */
  readonly dataVersion: Database.Statement<[], number>;
}

/** How to open one connection. */
export interface KeyStoreConnectionOptions {
  readonly readonly: boolean;
  readonly busyTimeoutMs: number;
  /**
   * Create the file and its table when missing or empty (read-write only). False when reopening a file
   * that replaced the one in use: an empty or truncated file is then unavailable, never silently a new
   * store with no keys, and nothing is written to it.
   */
  readonly create: boolean;
}

/** Opens `path`; throws `KeyStoreUnavailableError` naming it. */
export function openKeyStoreConnection(path: string, options: KeyStoreConnectionOptions): KeyStoreConnection {
  let db: Database.Database | undefined;
  try {
    const create = options.create && !options.readonly;
    db = new Database(path, { readonly: options.readonly, fileMustExist: !create, timeout: options.busyTimeoutMs });
    // WAL is stored in the file, so only a store being created needs the pragma (it writes the header).
    if (create) db.pragma('journal_mode = WAL');
    migrateKeyStore(db, path, { create });
    return {
      db,
      kysely: new Kysely<KeyStoreDatabase>({ dialect: new SqliteDialect({ database: db }) }),
      lookup: db.prepare<[string], KeyRowForVerdict>(
        'SELECT id, tier, cities, created_at, expires_at, revoked_at FROM api_keys WHERE secret_digest = ?',
      ),
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    };
  } catch (error) {
    db?.close();
    throw toKeyStoreError(error, `opening ${path}`);
  }
}
