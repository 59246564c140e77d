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
 * What the trigger cannot announce is caught too (postgres-key-reads.ts): the probe also reads the
 * table's identity and the trigger's state, so a dropped, restored, truncated or replaced table, or a
 * disabled trigger, empties the cache within one probe; while the trigger is off nothing is cached. A
 * change made with the trigger off and back on in one transaction leaves no trace but the rows
 * themselves: every `rowRevalidateEveryMs` the cached rows are read again, and a row that differs is
 * dropped.
 *
 * Failing closed: while the listening connection is down, lookups throw at once (503, no waiting on a
 * connect timeout) and a reconnect is tried every `revalidateEveryMs`. A miss while it is up asks the
 * database through the pool, bounded by `lookupDeadlineMs`.
 */
import pg from 'pg';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { judgeKeyRow, judgeKeyRowOnce, type JudgedKeyRow } from './judge-key-row.ts';
import { defaultKeyCacheBounds, type KeyCacheBounds } from './postgres-key-cache-bounds.ts';
import { KeyStoreUnavailableError } from './key-errors.ts';
import { digestKey, parseKeyShape, type WellFormedKey } from './key-format.ts';
import type { KeyLookupResult } from './key-lookup.ts';
import { keyChangeChannel, type PostgresKeyStoreDatabase } from './postgres-key-migrations.ts';
import {
  fetchRowsByDigest, fetchVersionedRow, readKeyStoreState, sameStoredRow, type KeyStoreState, type StoredKeyRow, type VersionedRow,
} from './postgres-key-reads.ts';

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

/** A cached row and the digest it was read by (the revalidation reads it again by that digest). */
interface CachedRow extends JudgedKeyRow {
  readonly row: StoredKeyRow;
  readonly digest: string;
}

/** The row cache of one gateway; `start` resolves once it listens, or throws `KeyStoreUnavailableError`. */
export class PostgresKeyCache {
  readonly #options: PostgresKeyCacheOptions;
  readonly #bounds: KeyCacheBounds;
  readonly #elapsed: () => number;
  readonly #rows: LRUCache<string, CachedRow>;
  /** Lookups waiting on the database, by presented key: concurrent misses for one key share one query. */
  readonly #pending = new Map<string, Promise<KeyLookupResult>>();
  /** The version the cached rows were read under; undefined while not listening. */
  #version: bigint | undefined;
  /** The table identity they were read from, and whether changes to it are announced (see KeyStoreState). */
  #table: string | null = null;
  #announced = false;
  #listener: pg.Client | undefined;
  #confirmedAt = Number.NEGATIVE_INFINITY;
  #lostBecause = 'not connected yet';
  #ticking = false;
  #revalidating = false;
  #closed = false;
  readonly #timer: NodeJS.Timeout;
  readonly #rowTimer: NodeJS.Timeout;

  private constructor(options: PostgresKeyCacheOptions) {
    this.#options = options;
    this.#bounds = { ...defaultKeyCacheBounds, ...options.bounds };
    this.#elapsed = options.elapsedMs ?? (() => performance.now());
    this.#rows = new LRUCache({ max: this.#bounds.maxRows });
    this.#timer = setInterval(() => void this.#tick(), this.#bounds.revalidateEveryMs);
    this.#timer.unref();
    this.#rowTimer = setInterval(() => void this.#revalidateRows(), this.#bounds.rowRevalidateEveryMs);
    this.#rowTimer.unref();
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
    if (cached !== undefined && this.#trusted()) return judgeKeyRowOnce(cached, this.#options.now);
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
    clearInterval(this.#rowTimer);
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
    const digest = digestKey(key);
    const query = fetchVersionedRow(this.#options.db, digest).then(
      (read) => {
        this.#remember(raw, digest, read);
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
  // A row read from another table than the probe last saw is used once too (the probe settles which is
  // current), and nothing is kept while changes go unannounced.
  #remember(raw: string, digest: string, read: VersionedRow): void {
    if (this.#listener === undefined || this.#version === undefined) return;
    if (read.table !== this.#table || !this.#announced) return;
    if (read.version > this.#version) this.#observe(read.version);
    if (read.version === this.#version) this.#rows.set(raw, { row: read.row, digest, valid: undefined });
  }

  #observe(version: bigint): void {
    if (version === this.#version) return;
    this.#rows.clear();
    this.#version = version;
  }

  #observeState(state: KeyStoreState): void {
    if (state.table !== this.#table || state.announced !== this.#announced) {
      this.#rows.clear();
      this.#table = state.table;
      this.#announced = state.announced;
    }
    this.#observe(state.version);
  }

  // Reads every cached row again and drops those that changed (or vanished, or appeared for a cached
  // unknown key). A failed read drops everything: a row not confirmed for this long is not served.
  async #revalidateRows(): Promise<void> {
    if (this.#revalidating || this.#closed || this.#listener === undefined || this.#rows.size === 0) return;
    this.#revalidating = true;
    const checked = [...this.#rows.entries()];
    try {
      const current = await fetchRowsByDigest(this.#options.db, checked.map(([, cached]) => cached.digest));
      for (const [raw, cached] of checked) {
        // An entry replaced meanwhile was read after this revalidation began: it is newer than `current`.
        if (this.#rows.peek(raw) === cached && !sameStoredRow(cached.row, current.get(cached.digest) ?? null)) this.#rows.delete(raw);
      }
    } catch {
      this.#rows.clear();
    } finally {
      this.#revalidating = false;
    }
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
      const state = await readKeyStoreState(client);
      if (this.#closed) throw new Error('the key cache was closed');
      this.#listener = client;
      this.#version = state.version;
      this.#table = state.table;
      this.#announced = state.announced;
      this.#rows.clear();
      this.#confirmedAt = started;
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    this.#options.onStatus?.('listening', `listening for key changes on ${this.#options.where}`);
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
        const state = await readKeyStoreState(client);
        if (client === this.#listener) {
          this.#observeState(state);
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
