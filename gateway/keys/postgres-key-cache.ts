/**
 * The gateway's cache of PostgreSQL key rows: fast (a hit is a synchronous map read, no round trip) and
 * current (a change made on any host is obeyed within about a second).
 *
 * Currency rests on one counter, `key_store_state.version`, which a trigger bumps and announces with
 * NOTIFY on every change to `api_keys`. One dedicated connection LISTENs for it and, every
 * `revalidateEveryMs`, also reads it (a lost notification, or a connection that went silent without an
 * error, is caught by that probe). Any version other than the one the cache was filled under empties
 * the cache. Rows are served from the cache only while that connection is up and the last successful
 * probe began less than `staleAfterMs` ago: past that, nothing cached is trusted.
 *
 * Failing closed: while the listening connection is down, lookups throw at once (503, no waiting on a
 * connect timeout) and a reconnect is tried every `revalidateEveryMs`. A miss while it is up asks the
 * database through the pool, bounded by `lookupDeadlineMs`.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { judgeKeyRow } from './judge-key-row.ts';
import { KeyStoreUnavailableError } from './key-errors.ts';
import { digestKey, parseKeyShape, type WellFormedKey } from './key-format.ts';
import type { KeyLookupResult, KeyRowForVerdict } from './key-lookup.ts';
import { keyChangeChannel, type PostgresKeyStoreDatabase } from './postgres-key-migrations.ts';

/** The time bounds of the cache, in milliseconds, and its size in rows. */
export interface KeyCacheBounds {
  /** How often the listening connection reads the store version (and a lost one is reconnected). */
  readonly revalidateEveryMs: number;
  /** Cached rows are not served once the last successful probe began longer ago than this. */
  readonly staleAfterMs: number;
  /** A probe not answered within this ends the listening connection. */
  readonly probeTimeoutMs: number;
  /** A request waiting on a cache miss gives up (503) after this. */
  readonly lookupDeadlineMs: number;
  /** Opening the listening connection gives up after this. */
  readonly connectTimeoutMs: number;
  /** Rows kept, least recently used evicted first (about 300 bytes each). */
  readonly maxRows: number;
}

/**
 * Defaults meeting the bounds: a change reaches every gateway within 1 s even if its
 * notification is lost (probe every 250 ms), a store that stops answering stops cached keys within 1 s,
 * and a request never waits on the store for more than 50 ms.
 */
export const defaultKeyCacheBounds: KeyCacheBounds = {
  revalidateEveryMs: 250,
  staleAfterMs: 1000,
  probeTimeoutMs: 500,
  lookupDeadlineMs: 50,
  connectTimeoutMs: 1000,
  maxRows: 10_000,
};

/** How to start a key cache. */
export interface PostgresKeyCacheOptions {
  /** Kysely over the pool that answers cache misses. */
  readonly db: Kysely<PostgresKeyStoreDatabase>;
  /** Where the listening connection goes (the store's URL and options). */
  readonly listener: pg.ClientConfig;
  /** The key store as operators name it (never with a password), for error messages. */
  readonly where: string;
  /** The clock verdicts are judged at (expiry). */
  readonly now: () => Date;
  /** A monotonic clock for the bounds; default `performance.now`. */
  readonly elapsedMs?: () => number;
  readonly bounds?: Partial<KeyCacheBounds>;
  /** Told when the listening connection is lost or (re)established, for the gateway's log. */
  readonly onStatus?: (status: 'listening' | 'lost', detail: string) => void;
}

/** A row as cached: `null` for a well-formed key the store does not hold. */
type CachedRow = KeyRowForVerdict | null;

/** One lookup's row read together with the store version it was read under (one snapshot). */
interface VersionedRow {
  readonly version: bigint;
  readonly row: CachedRow;
}

/** Reads the row of `digest` and the store version in one statement, so both come from one snapshot. */
export async function fetchVersionedRow(db: Kysely<PostgresKeyStoreDatabase>, digest: string): Promise<VersionedRow> {
  const { rows } = await sql<{ version: string } & { [K in keyof KeyRowForVerdict]: KeyRowForVerdict[K] | null }>`
    SELECT s.version, k.id, k.tier, k.cities, k.created_at, k.expires_at, k.revoked_at
    FROM key_store_state s LEFT JOIN api_keys k ON k.secret_digest = ${digest}`.execute(db);
  const found = rows[0];
  if (found === undefined) throw new KeyStoreUnavailableError('key store has no key_store_state row');
  const { version, id, tier, cities, created_at, expires_at, revoked_at } = found;
  const row = id === null || tier === null || created_at === null ? null : { id, tier, cities, created_at, expires_at, revoked_at };
  return { version: BigInt(version), row };
}

/** The row cache of one gateway; `start` resolves once it listens, or throws `KeyStoreUnavailableError`. */
export class PostgresKeyCache {
  readonly #options: PostgresKeyCacheOptions;
  readonly #bounds: KeyCacheBounds;
  readonly #elapsed: () => number;
  readonly #rows: LRUCache<string, { row: CachedRow }>;
  /** Lookups waiting on the database, by presented key: concurrent misses for one key share one query. */
  readonly #pending = new Map<string, Promise<KeyLookupResult>>();
  /** The version the cached rows were read under; undefined while not listening. */
  #version: bigint | undefined;
  #listener: pg.Client | undefined;
  #confirmedAt = Number.NEGATIVE_INFINITY;
  #lostBecause = 'not connected yet';
  #ticking = false;
  #closed = false;
  readonly #timer: NodeJS.Timeout;

  private constructor(options: PostgresKeyCacheOptions) {
    this.#options = options;
    this.#bounds = { ...defaultKeyCacheBounds, ...options.bounds };
    this.#elapsed = options.elapsedMs ?? (() => performance.now());
    this.#rows = new LRUCache({ max: this.#bounds.maxRows });
    this.#timer = setInterval(() => void this.#tick(), this.#bounds.revalidateEveryMs);
    this.#timer.unref();
  }

  /** Starts the cache and its listening connection; throws `KeyStoreUnavailableError` when it cannot listen. */
  static async start(options: PostgresKeyCacheOptions): Promise<PostgresKeyCache> {
    const cache = new PostgresKeyCache(options);
    try {
      await cache.#listen();
    } catch (error) {
      await cache.close();
      throw new KeyStoreUnavailableError(`key store ${options.where} cannot be watched for changes: ${describe(error)}`, { cause: error });
    }
    return cache;
  }

  /** The request-path lookup of a present key: synchronous on a trusted hit, else a bounded promise. */
  lookup(raw: string): KeyLookupResult | Promise<KeyLookupResult> {
    const cached = this.#rows.get(raw);
    if (cached !== undefined && this.#trusted()) return judgeKeyRow(cached.row, this.#options.now());
    const shape = parseKeyShape(raw);
    if (shape.kind === 'malformed') return { kind: 'malformed' };
    // Not listening: the store is down or unreachable. Answer now rather than wait on a connect timeout.
    if (this.#listener === undefined) {
      throw new KeyStoreUnavailableError(`key store ${this.#options.where} is unreachable: ${this.#lostBecause}`);
    }
    return this.#load(raw, shape.key);
  }

  /** Tells the cache the version this process's own write committed, so its own changes apply at once. */
  noteVersion(version: bigint): void {
    if (this.#listener !== undefined) this.#observe(version);
  }

  /** Whether cached rows may be served now (for tests and logs). */
  get trusted(): boolean {
    return this.#trusted();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    const listener = this.#listener;
    this.#listener = undefined;
    this.#rows.clear();
    await listener?.end().catch(() => undefined);
  }

  #trusted(): boolean {
    return this.#listener !== undefined && this.#elapsed() - this.#confirmedAt <= this.#bounds.staleAfterMs;
  }

  #load(raw: string, key: WellFormedKey): Promise<KeyLookupResult> {
    const waiting = this.#pending.get(raw);
    if (waiting !== undefined) return waiting;
    const { where, now } = this.#options;
    const deadlineMs = this.#bounds.lookupDeadlineMs;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new KeyStoreUnavailableError(`key store ${where} did not answer within ${deadlineMs} ms`)), deadlineMs);
    });
    const query = fetchVersionedRow(this.#options.db, digestKey(key)).then(
      (read) => {
        this.#remember(raw, read);
        return judgeKeyRow(read.row, now());
      },
      (error: unknown) => {
        throw error instanceof KeyStoreUnavailableError ? error : new KeyStoreUnavailableError(`key store ${where} lookup failed: ${describe(error)}`, { cause: error });
      },
    );
    const answer = Promise.race([query, deadline]);
    const settle = () => {
      clearTimeout(timer);
      this.#pending.delete(raw);
    };
    // Handled here as well as by the caller: the fast path drops a pending lookup and hands the request to
    // Koa, which waits on this same promise; an answer nobody awaits must not become an unhandled rejection.
    answer.then(settle, settle);
    query.catch(() => undefined);
    this.#pending.set(raw, answer);
    return answer;
  }

  // A row read under an older version than the cache's may predate a change the cache already saw: used
  // for its own request only. One read under a newer version means every other cached row is suspect.
  #remember(raw: string, read: VersionedRow): void {
    if (this.#listener === undefined || this.#version === undefined) return;
    if (read.version > this.#version) this.#observe(read.version);
    if (read.version === this.#version) this.#rows.set(raw, { row: read.row });
  }

  #observe(version: bigint): void {
    if (version === this.#version) return;
    this.#rows.clear();
    this.#version = version;
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({
      ...this.#options.listener,
      connectionTimeoutMillis: this.#bounds.connectTimeoutMs,
      query_timeout: this.#bounds.probeTimeoutMs,
      keepAlive: true,
    });
    client.on('error', (error) => this.#lose(client, describe(error)));
    client.on('end', () => this.#lose(client, 'the listening connection ended'));
    client.on('notification', (message) => {
      if (client === this.#listener && message.channel === keyChangeChannel && message.payload !== undefined && /^\d+$/.test(message.payload)) {
        this.#observe(BigInt(message.payload));
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${keyChangeChannel}`);
      const started = this.#elapsed();
      const version = await this.#probe(client);
      if (this.#closed) throw new Error('the key cache was closed');
      this.#listener = client;
      this.#version = version;
      this.#rows.clear();
      this.#confirmedAt = started;
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    this.#options.onStatus?.('listening', `listening for key changes on ${this.#options.where}`);
  }

  async #probe(client: pg.Client): Promise<bigint> {
    const { rows } = await client.query<{ version: string }>('SELECT version FROM key_store_state');
    const version = rows[0]?.version;
    if (version === undefined) throw new Error('key_store_state has no row');
    return BigInt(version);
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#closed) return;
    this.#ticking = true;
    const client = this.#listener;
    try {
      if (client === undefined) {
        await this.#listen();
      } else {
        const started = this.#elapsed();
        const version = await this.#probe(client);
        if (client === this.#listener) {
          this.#observe(version);
          this.#confirmedAt = started;
        }
      }
    } catch (error) {
      if (client === undefined) this.#lostBecause = describe(error);
      else this.#lose(client, describe(error));
    } finally {
      this.#ticking = false;
    }
  }

  #lose(client: pg.Client, reason: string): void {
    if (client !== this.#listener) return;
    this.#listener = undefined;
    this.#version = undefined;
    this.#rows.clear();
    this.#lostBecause = reason;
    void client.end().catch(() => undefined);
    if (!this.#closed) this.#options.onStatus?.('lost', `key store ${this.#options.where} lost: ${reason}; cached keys are no longer served`);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === '' && error instanceof Error ? error.name : message;
}
