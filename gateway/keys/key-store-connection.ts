/**
 * One open connection to a key store file, with the two statements the request path runs on it. The key
 * store opens one at start and, when the file at its path is replaced or rewritten, another on the new
 * file (follow-key-store-file.ts).
 *
 * Kysely, which writes and listings go through, is imported only by the first of them: a gateway only
 * looks keys up, and kysely's 263 modules were the largest share of its start-up's module loading, CPU
 * taken from the snapshot's hash running beside it (BENCHMARKS.md, issue 25 goal 3).
 */
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { toKeyStoreError } from './key-errors.ts';
import type { KeyRowForVerdict } from './key-lookup.ts';
import { migrateKeyStore, type KeyStoreDatabase } from './key-store-schema.ts';

/** A connection and what runs on it; `db.close()` releases all of it (Kysely holds nothing else). */
export interface KeyStoreConnection {
  readonly db: Database.Database;
  /** Writes and listings: Kysely over `db`, made (and kysely loaded) by the first call, the same one after. */
  kysely(): Promise<Kysely<KeyStoreDatabase>>;
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
    const database = db;
    let kysely: Promise<Kysely<KeyStoreDatabase>> | undefined;
    return {
      db,
      kysely: () => (kysely ??= kyselyOver(database)),
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

/** Kysely over an open better-sqlite3 database; `db.close()` is all it needs to be released. */
async function kyselyOver(database: Database.Database): Promise<Kysely<KeyStoreDatabase>> {
  const { Kysely, SqliteDialect } = await import('kysely');
  return new Kysely<KeyStoreDatabase>({ dialect: new SqliteDialect({ database }) });
}
