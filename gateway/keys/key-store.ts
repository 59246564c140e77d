/**
 * The API key store: one SQLite file holding key digests, opened read-write by `hra keys` and
 * concurrently by gateway processes. WAL journal mode lets gateway readers run while the CLI writes;
 * the busy timeout makes a second writer wait instead of failing.
 *
 * Writes and listings go through Kysely. The request-path lookup is one better-sqlite3 statement,
 * prepared once and run synchronously on the UNIQUE digest index: Kysely's SQLite driver re-prepares
 * SQL and serialises every query behind an async mutex, which is overhead on every licensed request
 * and buys nothing for a single fixed query.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { inImmediateTransaction } from './in-immediate-transaction.ts';
import { digestKey, parseKeyShape } from './key-format.ts';
import { toKeyStoreError } from './key-errors.ts';
import type { ListedKey } from './key-listing.ts';
import { judgeKeyRow } from './judge-key-row.ts';
import type { KeyLookupResult, KeyRowForVerdict } from './key-lookup.ts';
import type { KeyPolicyRequest } from './key-policy.ts';
import { migrateKeyStore, type KeyStoreDatabase } from './key-store-schema.ts';
import { issueKey, listStoredKeys, newKeyRow, revokeStoredKey, rotateStoredKey } from './key-store-writes.ts';
import type { KeyTier } from './key-tiers.ts';
import { LRUCache } from 'lru-cache';

/** How to open a key store. */
export interface KeyStoreOptions {
  /** The clock: creation, revocation and expiry are all judged against it. */
  readonly now: () => Date;
  /** Gateways may open read-only; the file must then exist and be initialised. Default false. */
  readonly readonly?: boolean;
  /** How long to wait for another process's write lock, in milliseconds. Default 5000. */
  readonly busyTimeoutMs?: number;
}

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

/** A store whose lookups are always answered synchronously: the embedded SQLite file. */
export interface LocalKeyStore extends KeyStore {
  lookupKey(raw: string | undefined): KeyLookupResult;
}

/** Marks a well-formed key the store does not hold, in the lookup cache. */
const UNKNOWN = Symbol('unknown key');

/** Opens (and when read-write, creates) the key store at `path`; throws `KeyStoreUnavailableError`. */
export function openKeyStore(path: string, options: KeyStoreOptions): LocalKeyStore {
  const readonly = options.readonly ?? false;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly, timeout: options.busyTimeoutMs ?? 5000 });
    if (!readonly) db.pragma('journal_mode = WAL');
    migrateKeyStore(db, path);
    return new SqliteKeyStore(db, options.now);
  } catch (error) {
    db?.close();
    throw toKeyStoreError(error, `opening ${path}`);
  }
}

class SqliteKeyStore implements LocalKeyStore {
  readonly #db: Database.Database;
  readonly #kysely: Kysely<KeyStoreDatabase>;
  readonly #now: () => Date;
  readonly #lookup: Database.Statement<[string], KeyRowForVerdict>;
  readonly #dataVersion: Database.Statement<[], number>;
  /**
   * Stored rows by presented key (null: well-formed but unknown), so the request path skips two SHA-256s
   * and a read transaction. Cleared whenever PRAGMA data_version, probed once per event-loop turn, says
   * another connection committed (a CLI revoke, rotate or tier change), and after this store's own writes:
   * revocation still takes effect on the next request. Expiry is judged at every lookup from the cached row.
   */
  readonly #rows = new LRUCache<string, KeyRowForVerdict | typeof UNKNOWN>({ max: 10_000 });
  #seenVersion = -1;
  #versionChecked = false;

  constructor(db: Database.Database, now: () => Date) {
    this.#db = db;
    this.#now = now;
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.#kysely = new Kysely<KeyStoreDatabase>({ dialect: new SqliteDialect({ database: db }) });
    this.#lookup = db.prepare<[string], KeyRowForVerdict>(
      'SELECT id, tier, cities, created_at, expires_at, revoked_at FROM api_keys WHERE secret_digest = ?',
    );
  }

  lookupKey(raw: string | undefined): KeyLookupResult {
    if (raw === undefined || raw === '') return { kind: 'missing' };
    let row = this.#rows.get(raw);
    // Only well-formed keys are ever cached, so a malformed one is refused here without touching the database.
    const shape = row === undefined ? parseKeyShape(raw) : undefined;
    if (shape?.kind === 'malformed') return { kind: 'malformed' };
    try {
      if (!this.#versionChecked) {
        const version = this.#dataVersion.get() as number;
        if (version !== this.#seenVersion) {
          this.#rows.clear();
          this.#seenVersion = version;
          row = undefined;
        }
        // Once per event-loop turn: a request read after a commit lands in a later turn than the commit,
        // so it is still judged on the new rows. Per request, this read-transaction probe cost a fifth of
        // the fast path's throughput under load (issue 6).
        this.#versionChecked = true;
        setImmediate(() => {
          this.#versionChecked = false;
        });
      }
      if (row === undefined) {
        const wellFormed = shape ?? parseKeyShape(raw);
        if (wellFormed.kind === 'malformed') return { kind: 'malformed' };
        row = this.#lookup.get(digestKey(wellFormed.key)) ?? UNKNOWN;
        this.#rows.set(raw, row);
      }
    } catch (error) {
      throw toKeyStoreError(error, 'looking up a key');
    }
    return judgeKeyRow(row === UNKNOWN ? null : row, this.#now());
  }

  async createKey(request: KeyPolicyRequest): Promise<IssuedKey> {
    const row = newKeyRow(request, this.#now());
    return this.#write('creating a key', (db) => issueKey(db, row));
  }

  async revokeKey(id: string): Promise<RevokedKey> {
    const revokedAt = this.#now().toISOString();
    return this.#write(`revoking ${id}`, (db) => revokeStoredKey(db, id, revokedAt, { lockRows: false }));
  }

  async rotateKey(id: string): Promise<IssuedKey> {
    const now = this.#now();
    return this.#write(`rotating ${id}`, (db) => rotateStoredKey(db, id, now, { lockRows: false }));
  }

  async listKeys(): Promise<readonly ListedKey[]> {
    const now = this.#now();
    try {
      return await listStoredKeys(this.#kysely, now);
    } catch (error) {
      throw toKeyStoreError(error, 'listing keys');
    }
  }

  async close(): Promise<void> {
    await this.#kysely.destroy();
    if (this.#db.open) this.#db.close();
  }

  async #write<T>(doing: string, work: (db: Kysely<KeyStoreDatabase>) => Promise<T>): Promise<T> {
    try {
      return await inImmediateTransaction(this.#kysely, work);
    } catch (error) {
      throw toKeyStoreError(error, doing);
    } finally {
      // data_version does not move for this connection's own commits.
      this.#rows.clear();
    }
  }
}
