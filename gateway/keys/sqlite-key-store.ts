/**
 * The SQLite key store: one file holding key digests, opened read-write by `hra keys` and
 * concurrently by gateway processes. WAL journal mode lets gateway readers run while the CLI writes;
 * the busy timeout makes a second writer wait instead of failing.
 *
 * Writes and listings go through Kysely. The request-path lookup is one better-sqlite3 statement,
 * prepared once and run synchronously on the UNIQUE digest index: Kysely's SQLite driver re-prepares
 * SQL and serialises every query behind an async mutex, which is overhead on every licensed request
 * and buys nothing for a single fixed query.
 *
 * The store follows its path (follow-key-store-file.ts): a file replaced by rename, deleted, truncated or
 * overwritten is noticed within a check interval and reopened, or makes the store unavailable.
 */
import { existsSync } from 'node:fs';
import { FollowedKeyStoreFile, KEY_STORE_FILE_CHECK_MS, type KeyStoreFileEvent } from './follow-key-store-file.ts';
import { digestKey, parseKeyShape } from './key-format.ts';
import { KeyStoreMissingError, toKeyStoreError } from './key-errors.ts';
import type { ListedKey } from './key-listing.ts';
import { judgeKeyRow, judgeKeyRowOnce, type JudgedKeyRow } from './judge-key-row.ts';
import type { KeyLookupResult, KeyRowForVerdict } from './key-lookup.ts';
import type { KeyPolicyRequest } from './key-policy.ts';
import type { IssuedKey, KeyStore, RevokedKey } from './key-store.ts';
import { openKeyStoreConnection, type KeyStoreConnection } from './key-store-connection.ts';
import type { KeyStoreDatabase } from './key-store-schema.ts';
import { issueKey, listStoredKeys, newKeyRow, revokeStoredKey, rotateStoredKey } from './key-store-writes.ts';
import type { Kysely } from 'kysely';
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
  /** Minimum milliseconds between two checks that the path still names the open file. Default 250. */
  readonly fileCheckIntervalMs?: number;
  /** Monotonic milliseconds for those checks; default `performance.now`. */
  readonly elapsedMs?: () => number;
  /** Told when the file is reopened or becomes unreadable (the gateway logs it). */
  readonly onFileChange?: (event: KeyStoreFileEvent) => void;
}

/** A store whose lookups are always answered synchronously: the embedded SQLite file. */
export interface LocalKeyStore extends KeyStore {
  lookupKey(raw: string | undefined): KeyLookupResult;
}

/** Marks a well-formed key the store does not hold, in the lookup cache. */
const UNKNOWN = Symbol('unknown key');

/** A cached row, with its valid verdict once judged (judge-key-row.ts). */
type CachedRow = JudgedKeyRow & { readonly row: KeyRowForVerdict };

/** Opens (and when read-write and `create`, creates) the key store at `path`; throws `KeyStoreUnavailableError`. */
export function openKeyStore(path: string, options: KeyStoreOptions): LocalKeyStore {
  const readonly = options.readonly ?? false;
  const create = !readonly && (options.create ?? true);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  try {
    const file = new FollowedKeyStoreFile(path, create, {
      open: (createNow) => openKeyStoreConnection(path, { readonly, busyTimeoutMs, create: createNow }),
      checkIntervalMs: options.fileCheckIntervalMs ?? KEY_STORE_FILE_CHECK_MS,
      elapsedMs: options.elapsedMs ?? (() => performance.now()),
      onChange: options.onFileChange,
    });
    return new SqliteKeyStore(file, options.now);
  } catch (error) {
    // Without create, SQLite itself refuses a missing file (no O_CREAT); name that case for the CLI.
    if (!create && !existsSync(path)) throw new KeyStoreMissingError(path);
    throw error;
  }
}

class SqliteKeyStore implements LocalKeyStore {
  readonly #file: FollowedKeyStoreFile;
  readonly #now: () => Date;
  /**
   * Stored rows by presented key (null: well-formed but unknown), so the request path skips two SHA-256s
   * and a read transaction. Cleared whenever PRAGMA data_version, probed once per event-loop turn, says
   * another connection committed (a CLI revoke, rotate or tier change), after this store's own writes, and
   * whenever the followed file is reopened or lost: revocation still takes effect on the next request, and
   * no row outlives the file it was read from. Expiry is judged at every lookup from the cached row.
   */
  readonly #rows = new LRUCache<string, CachedRow | typeof UNKNOWN>({ max: 10_000 });
  #seenVersion = -1;
  #seenGeneration = -1;
  #versionChecked = false;

  constructor(file: FollowedKeyStoreFile, now: () => Date) {
    this.#file = file;
    this.#now = now;
  }

  lookupKey(raw: string | undefined): KeyLookupResult {
    if (raw === undefined || raw === '') return { kind: 'missing' };
    // Only well-formed keys are ever cached, so a malformed one is refused here without touching the database.
    const shape = this.#rows.has(raw) ? undefined : parseKeyShape(raw);
    if (shape?.kind === 'malformed') return { kind: 'malformed' };
    let row: CachedRow | typeof UNKNOWN | undefined;
    try {
      if (!this.#versionChecked) {
        const version = this.#connection().dataVersion.get() as number;
        if (version !== this.#seenVersion) {
          this.#rows.clear();
          this.#seenVersion = version;
        }
        // Once per event-loop turn: a request read after a commit lands in a later turn than the commit,
        // so it is still judged on the new rows. Per request, this read-transaction probe cost a fifth of
        // the fast path's throughput under load (issue 6).
        this.#versionChecked = true;
        setImmediate(() => {
          this.#versionChecked = false;
        });
      }
      row = this.#rows.get(raw);
      if (row === undefined) {
        const wellFormed = shape ?? parseKeyShape(raw);
        if (wellFormed.kind === 'malformed') return { kind: 'malformed' };
        const stored = this.#connection().lookup.get(digestKey(wellFormed.key));
        row = stored === undefined ? UNKNOWN : { row: stored, valid: undefined };
        this.#rows.set(raw, row);
      }
    } catch (error) {
      throw toKeyStoreError(error, 'looking up a key');
    }
    if (row === UNKNOWN) return judgeKeyRow(null, this.#now());
    return judgeKeyRowOnce(row, this.#now);
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
      return await listStoredKeys(await this.#connection().kysely(), now);
    } catch (error) {
      throw toKeyStoreError(error, 'listing keys');
    }
  }

  async close(): Promise<void> {
    this.#file.close();
  }

  /**
   * The followed file's connection (throws while it cannot be read). Rows cached from an earlier
   * connection are dropped first: a row is only ever served from the file it was read from.
   */
  #connection(): KeyStoreConnection {
    const connection = this.#file.connection();
    if (this.#file.generation !== this.#seenGeneration) {
      this.#rows.clear();
      this.#seenGeneration = this.#file.generation;
      // data_version counts per connection; a new one starts its own count.
      this.#seenVersion = -1;
    }
    return connection;
  }

  async #write<T>(doing: string, work: (db: Kysely<KeyStoreDatabase>) => Promise<T>): Promise<T> {
    try {
      // Imports kysely at the first write (key-store-connection.ts), before the connection is taken, so
      // that loading modules does not come between taking the connection and writing through it.
      const { inImmediateTransaction } = await import('./in-immediate-transaction.ts');
      const connection = this.#connection();
      const result = await inImmediateTransaction(await connection.kysely(), work);
      emptyWriteAheadLog(connection);
      return result;
    } catch (error) {
      throw toKeyStoreError(error, doing);
    } finally {
      // data_version does not move for this connection's own commits.
      this.#rows.clear();
    }
  }
}

/**
 * Moves a committed write into the main file and truncates the write-ahead log. SQLite pairs a file with
 * its `-wal` by name only: a backup later renamed over this path would be read through frames this file
 * left there, showing this file's rows instead of the backup's. An empty log at rest rules that out.
 * Gateway readers hold no long transactions, so the checkpoint does not wait; should it fail, the write
 * still stands and the next write empties the log.
 */
function emptyWriteAheadLog(connection: KeyStoreConnection): void {
  if (connection.db.readonly) return;
  try {
    connection.db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Deliberately ignored, as explained above.
  }
}
