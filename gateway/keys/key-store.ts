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
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { inImmediateTransaction } from './in-immediate-transaction.ts';
import { digestKey, generateKey, generateKeyId, parseKeyShape } from './key-format.ts';
import { KeyStateError, KeyStoreMissingError, KeyStoreUnavailableError, UnknownKeyIdError, toKeyStoreError } from './key-errors.ts';
import { toListedKey, type ListedKey } from './key-listing.ts';
import { classifyKeyRow, type KeyLookupResult, type KeyRowForVerdict } from './key-lookup.ts';
import { resolveKeyPolicy, type KeyPolicyRequest } from './key-policy.ts';
import { migrateKeyStore, type ApiKeysTable, type KeyStoreDatabase } from './key-store-schema.ts';
import { fromStoredTier, toStoredTier, type KeyTier } from './key-tiers.ts';
import { LRUCache } from 'lru-cache';

/** How to open a key store. */
export interface KeyStoreOptions {
  /** The clock: creation, revocation and expiry are all judged against it. */
  readonly now: () => Date;
  /** Gateways may open read-only; the file must then exist and be initialised. Default false. */
  readonly readonly?: boolean;
  /**
   * Whether a missing store is created empty (read-write only). Default true; the CLI passes false
   * everywhere but `hra keys create`, so a mistyped path fails with `KeyStoreMissingError` instead.
   */
  readonly create?: boolean;
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
  /** The request-path check: synchronous, and never touches the database for a malformed key. */
  lookupKey(raw: string | undefined): KeyLookupResult;
  close(): Promise<void>;
}

/** Marks a well-formed key the store does not hold, in the lookup cache. */
const UNKNOWN = Symbol('unknown key');

const listedColumns = ['id', 'tier', 'cities', 'label', 'created_at', 'expires_at', 'revoked_at', 'rotated_from'] as const;

/** Opens (and when read-write and `create`, creates) the key store at `path`; throws `KeyStoreUnavailableError`. */
export function openKeyStore(path: string, options: KeyStoreOptions): KeyStore {
  const readonly = options.readonly ?? false;
  const create = !readonly && (options.create ?? true);
  let db: Database.Database | undefined;
  try {
    // Without create, SQLite itself refuses a missing file (no O_CREAT), so nothing is checked beforehand.
    db = new Database(path, { readonly, fileMustExist: !create, timeout: options.busyTimeoutMs ?? 5000 });
    if (!readonly) db.pragma('journal_mode = WAL');
    migrateKeyStore(db, path);
    return new SqliteKeyStore(db, options.now);
  } catch (error) {
    db?.close();
    if (!create && db === undefined && !existsSync(path)) throw new KeyStoreMissingError(path);
    throw toKeyStoreError(error, `opening ${path}`);
  }
}

class SqliteKeyStore implements KeyStore {
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
    if (row === UNKNOWN) return { kind: 'unknown' };
    const verdict = classifyKeyRow(row, this.#now());
    if (verdict.kind === 'corrupt') {
      throw new KeyStoreUnavailableError(`key store row ${verdict.id} is corrupt: ${verdict.reason}`);
    }
    return verdict;
  }

  async createKey(request: KeyPolicyRequest): Promise<IssuedKey> {
    const now = this.#now();
    const policy = resolveKeyPolicy(request, now);
    const row = {
      id: generateKeyId(),
      tier: toStoredTier(policy.tier),
      cities: policy.cities === null ? null : JSON.stringify(policy.cities),
      label: policy.label,
      created_at: now.toISOString(),
      expires_at: policy.expiresAt?.toISOString() ?? null,
      revoked_at: null,
      rotated_from: null,
    };
    return this.#write('creating a key', (db) => this.#issue(db, row));
  }

  async revokeKey(id: string): Promise<RevokedKey> {
    const revokedAt = this.#now().toISOString();
    return this.#write(`revoking ${id}`, async (db) => {
      const row = await db.selectFrom('api_keys').select('revoked_at').where('id', '=', id).executeTakeFirst();
      if (row === undefined) throw new UnknownKeyIdError(id);
      if (row.revoked_at !== null) return { id, revokedAt: row.revoked_at, alreadyRevoked: true };
      await db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).execute();
      return { id, revokedAt, alreadyRevoked: false };
    });
  }

  async rotateKey(id: string): Promise<IssuedKey> {
    const now = this.#now();
    return this.#write(`rotating ${id}`, async (db) => {
      const old = await db.selectFrom('api_keys').select(listedColumns).where('id', '=', id).executeTakeFirst();
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
      return this.#issue(db, { ...old, id: generateKeyId(), created_at: now.toISOString(), rotated_from: id });
    });
  }

  async listKeys(): Promise<readonly ListedKey[]> {
    const now = this.#now();
    try {
      const query = this.#kysely.selectFrom('api_keys').select(listedColumns).orderBy('created_at').orderBy('id');
      return (await query.execute()).map((row) => toListedKey(row, now));
    } catch (error) {
      throw toKeyStoreError(error, 'listing keys');
    }
  }

  async close(): Promise<void> {
    await this.#kysely.destroy();
    if (this.#db.open) this.#db.close();
  }

  async #issue(db: Kysely<KeyStoreDatabase>, row: Omit<ApiKeysTable, 'secret_digest'>): Promise<IssuedKey> {
    const tier = fromStoredTier(row.tier);
    if (tier === undefined) throw new KeyStoreUnavailableError(`key store row ${row.id} has an unknown tier`);
    const key = generateKey(tier);
    await db.insertInto('api_keys').values({ ...row, secret_digest: digestKey(key) }).execute();
    const cities = row.cities === null ? null : (JSON.parse(row.cities) as string[]);
    const { id, label, created_at: createdAt, expires_at: expiresAt, rotated_from: rotatedFrom } = row;
    return Object.freeze({ id, key, tier, cities, label, createdAt, expiresAt, rotatedFrom });
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
