/**
 * The key store in PostgreSQL, shared by every gateway host and every `hra keys` run: the same
 * `KeyStore` as the embedded SQLite file, through Kysely's PostgreSQL dialect over a `pg` pool.
 *
 * A gateway opens it watching (`watch: true`): lookups go through a `PostgresKeyCache`, which answers
 * from memory and learns of changes by LISTEN/NOTIFY and a version probe. A CLI run opens it without
 * watching: it has no cache to keep current, so its lookups (tests, scripts) always ask the database.
 */
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { judgeKeyRow } from './judge-key-row.ts';
import { KeyStoreUnavailableError, toKeyStoreError } from './key-errors.ts';
import { parseKeyShape, digestKey } from './key-format.ts';
import type { ListedKey } from './key-listing.ts';
import type { KeyLookupResult } from './key-lookup.ts';
import type { KeyPolicyRequest } from './key-policy.ts';
import type { KeyStoreDatabase } from './key-store-schema.ts';
import type { IssuedKey, KeyStore, RevokedKey } from './key-store.ts';
import { issueKey, listStoredKeys, newKeyRow, revokeStoredKey, rotateStoredKey } from './key-store-writes.ts';
import { PostgresKeyCache } from './postgres-key-cache.ts';
import type { KeyCacheBounds } from './postgres-key-cache-bounds.ts';
import { fetchVersionedRow } from './postgres-key-reads.ts';
import { migratePostgresKeyStore, type PostgresKeyStoreDatabase } from './postgres-key-migrations.ts';

/** How to open the PostgreSQL key store. */
export interface PostgresKeyStoreOptions {
  /** The clock: creation, revocation and expiry are all judged against it. */
  readonly now: () => Date;
  /** Keep a row cache current by LISTEN/NOTIFY (a gateway); without it every lookup asks the database. */
  readonly watch: boolean;
  /** Overrides of the cache's bounds (tests); the defaults meet the issue's 1 s and 100 ms bounds. */
  readonly cacheBounds?: Partial<KeyCacheBounds>;
  /** Told when the watching connection is lost or back, for the gateway's log. */
  readonly onStatus?: (status: 'listening' | 'lost', detail: string) => void;
}

/** The PostgreSQL store, plus what only a shared store can offer. */
export interface PostgresKeyStore extends KeyStore {
  /**
   * The secret named `name`, created once by whichever process asks first and the same for every
   * process after it (several hosts starting together agree: the first insert wins).
   */
  sharedSecret(name: string): Promise<Buffer>;
}

/** The URL with any password masked, for messages and logs. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/** Connects, migrates, and (when watching) starts the row cache; throws `KeyStoreUnavailableError`. */
export async function openPostgresKeyStore(url: string, options: PostgresKeyStoreOptions): Promise<PostgresKeyStore> {
  const where = describePostgresUrl(url);
  // A gateway never lets a request wait on the pool for long (the cache bounds each miss anyway); the
  // CLI may wait a few seconds for a busy server. Statement timeouts keep a stuck query from holding a
  // connection forever.
  const patient = !options.watch;
  const connection: pg.ClientConfig = {
    connectionString: url,
    application_name: options.watch ? 'hra-gateway' : 'hra-keys',
    connectionTimeoutMillis: patient ? 5_000 : 250,
    statement_timeout: patient ? 15_000 : 1_000,
    query_timeout: patient ? 20_000 : 1_000,
  };
  const pool = new pg.Pool({ ...connection, max: patient ? 2 : 10, idleTimeoutMillis: 30_000 });
  // An idle pooled connection dropped by the server emits 'error' on the pool; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<PostgresKeyStoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  let cache: PostgresKeyCache | undefined;
  try {
    // Reached first, so that an unreachable server is reported as such rather than as a failed migration.
    await sql`SELECT 1`.execute(db);
    await migratePostgresKeyStore(db as Kysely<unknown>, where);
    if (options.watch) {
      cache = await PostgresKeyCache.start({ db, listener: connection, where, now: options.now, bounds: options.cacheBounds, onStatus: options.onStatus });
    }
  } catch (error) {
    await db.destroy().catch(() => undefined);
    if (isMissingPassword(error)) throw new KeyStoreUnavailableError(`${where} has no password: put it in the URL (postgres://user:password@host:port/database) or set PGPASSWORD`, { cause: error });
    throw toKeyStoreError(error, `opening ${where}`);
  }
  return new PostgresStore(db, where, options.now, cache);
}

/**
 * Whether the server asked for a password that neither the URL, PGPASSWORD nor a pgpass file gave: pg
 * then reports the protocol step (`SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string`,
 * or the server's `empty password returned by client`), which says nothing of what to set.
 */
function isMissingPassword(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /client password must be a (non-empty )?string/.test(message) || ((error as { code?: unknown }).code === '28P01' && /empty password returned by client/.test(message));
}

class PostgresStore implements PostgresKeyStore {
  readonly #db: Kysely<PostgresKeyStoreDatabase>;
  readonly #where: string;
  readonly #now: () => Date;
  readonly #cache: PostgresKeyCache | undefined;

  constructor(db: Kysely<PostgresKeyStoreDatabase>, where: string, now: () => Date, cache: PostgresKeyCache | undefined) {
    this.#db = db;
    this.#where = where;
    this.#now = now;
    this.#cache = cache;
  }

  lookupKey(raw: string | undefined): KeyLookupResult | Promise<KeyLookupResult> {
    if (raw === undefined || raw === '') return { kind: 'missing' };
    if (this.#cache !== undefined) return this.#cache.lookup(raw);
    const shape = parseKeyShape(raw);
    if (shape.kind === 'malformed') return { kind: 'malformed' };
    return fetchVersionedRow(this.#db, digestKey(shape.key)).then(
      (read) => judgeKeyRow(read.row, this.#now()),
      (error: unknown) => {
        throw toKeyStoreError(error, `looking up a key in ${this.#where}`);
      },
    );
  }

  async createKey(request: KeyPolicyRequest): Promise<IssuedKey> {
    const row = newKeyRow(request, this.#now());
    return this.#write('creating a key', (db) => issueKey(db, row));
  }

  async revokeKey(id: string): Promise<RevokedKey> {
    const revokedAt = this.#now().toISOString();
    return this.#write(`revoking ${id}`, (db) => revokeStoredKey(db, id, revokedAt, { lockRows: true }));
  }

  async rotateKey(id: string): Promise<IssuedKey> {
    const now = this.#now();
    return this.#write(`rotating ${id}`, (db) => rotateStoredKey(db, id, now, { lockRows: true }));
  }

  async listKeys(): Promise<readonly ListedKey[]> {
    try {
      return await listStoredKeys(keysView(this.#db), this.#now());
    } catch (error) {
      throw toKeyStoreError(error, `listing keys in ${this.#where}`);
    }
  }

  async sharedSecret(name: string): Promise<Buffer> {
    try {
      await this.#db.insertInto('gateway_secrets').values({ name, value: randomBytes(32) })
        .onConflict((conflict) => conflict.column('name').doNothing()).execute();
      const row = await this.#db.selectFrom('gateway_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
      return row.value;
    } catch (error) {
      throw toKeyStoreError(error, `reading the shared secret ${JSON.stringify(name)} from ${this.#where}`);
    }
  }

  async close(): Promise<void> {
    await this.#cache?.close();
    await this.#db.destroy();
  }

  // The version is read inside the transaction, after the trigger bumped it, so this process's cache
  // applies its own write at once instead of waiting for its own notification.
  async #write<T>(doing: string, work: (db: Kysely<KeyStoreDatabase>) => Promise<T>): Promise<T> {
    try {
      const { result, version } = await this.#db.transaction().execute(async (tx) => {
        const done = await work(keysView(tx));
        const state = await tx.selectFrom('key_store_state').select('version').executeTakeFirstOrThrow();
        return { result: done, version: BigInt(state.version) };
      });
      this.#cache?.noteVersion(version);
      return result;
    } catch (error) {
      throw toKeyStoreError(error, `${doing} in ${this.#where}`);
    }
  }
}

// Kysely's database type is invariant; the shared lifecycle queries need only the `api_keys` table.
function keysView(db: Kysely<PostgresKeyStoreDatabase>): Kysely<KeyStoreDatabase> {
  return db as unknown as Kysely<KeyStoreDatabase>;
}
