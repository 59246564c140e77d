/**
 * Keeps a key store's connection on the file its path names now. SQLite's open descriptor stays on the
 * inode it opened: after a backup is renamed over the store, or the file is deleted, truncated or
 * overwritten, the old connection (and `PRAGMA data_version`, which only sees commits to that inode)
 * would go on confirming keys the store at the path no longer holds. Spec 3 and 5.7: access stops when a
 * key cannot be validated, so a replaced file is reopened and an unreadable one is unavailable (503).
 */
import { fileIdentity, sameInode } from '../files/file-identity.ts';
import { KeyStoreUnavailableError, toKeyStoreError } from './key-errors.ts';
import type { KeyStoreConnection } from './key-store-connection.ts';

/** How often the path is compared with the open file, at most, in milliseconds. */
export const KEY_STORE_FILE_CHECK_MS = 250;

/** What following a key store file needs. */
export interface FollowKeyStoreFileOptions {
  /** Opens the file at the path; `create` only for the first open. Throws `KeyStoreUnavailableError`. */
  open(create: boolean): KeyStoreConnection;
  /** Minimum milliseconds between two comparisons of the path with the open file. */
  checkIntervalMs: number;
  /** A monotonic clock in milliseconds (`performance.now`); not the key-expiry clock, which tests freeze. */
  elapsedMs: () => number;
  /** Told when the store becomes unavailable, or readable again on another file (for the log). */
  onChange?: (event: KeyStoreFileEvent) => void;
}

/** A change of the followed file, as the log reports it. */
export type KeyStoreFileEvent =
  | {
    readonly kind: 'reopened';
    readonly path: string;
    /**
     * `replaced`: another file now has the path (a restore by rename); `rewritten`: the same file changed
     * in place (every `hra keys` write does so when it empties the write-ahead log); `recovered`: the path
     * is readable again after an outage.
     */
    readonly cause: 'replaced' | 'rewritten' | 'recovered';
  }
  | { readonly kind: 'unavailable'; readonly path: string; readonly reason: string };

/** The followed file: a connection to read through, or the reason there is none. */
export class FollowedKeyStoreFile {
  readonly #path: string;
  readonly #options: FollowKeyStoreFileOptions;
  /** The connection reads may use; undefined while the file at the path cannot be read. */
  #connection: KeyStoreConnection | undefined;
  /**
   * A connection no longer used, kept open until another is open: closing the last connection to a file
   * checkpoints its write-ahead log into it, and a damaged file must not be written to by the gateway.
   */
  #retired: KeyStoreConnection | undefined;
  /** Identity of the file `#connection` was opened on, taken just before opening it. */
  #identity: string | undefined;
  #failure: KeyStoreUnavailableError | undefined;
  #nextCheckAt: number;
  #generation = 0;

  /** Opens the file at `path` (creating it when `create`); throws `KeyStoreUnavailableError`. */
  constructor(path: string, create: boolean, options: FollowKeyStoreFileOptions) {
    this.#path = path;
    this.#options = options;
    this.#identity = fileIdentity(path);
    this.#connection = options.open(create);
    this.#nextCheckAt = options.elapsedMs() + options.checkIntervalMs;
  }

  /** Moves whenever the connection is replaced or lost: rows read before then must not be served again. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * The connection to read through now. At most once per check interval, compares the file at the path
   * with the one open (one `stat`, no SQLite call) and reopens a replaced or rewritten file; throws
   * `KeyStoreUnavailableError` while the path names no readable key store.
   */
  connection(): KeyStoreConnection {
    const now = this.#options.elapsedMs();
    if (now >= this.#nextCheckAt) {
      this.#nextCheckAt = now + this.#options.checkIntervalMs;
      this.#follow();
    }
    if (this.#connection === undefined) throw this.#failure ?? new KeyStoreUnavailableError(`key store ${this.#path} is closed`);
    return this.#connection;
  }

  /** Closes every connection; the store is unavailable from then on. */
  close(): void {
    for (const connection of [this.#connection, this.#retired]) connection?.db.close();
    this.#connection = undefined;
    this.#retired = undefined;
    this.#failure = new KeyStoreUnavailableError(`key store ${this.#path} is closed`);
    this.#nextCheckAt = Number.POSITIVE_INFINITY;
  }

  #follow(): void {
    const identity = fileIdentity(this.#path);
    if (identity !== undefined && identity === this.#identity && this.#connection !== undefined) return;
    // While unavailable every check tries again: a file can be fixed in place, or a failure be passing.
    if (identity === undefined) {
      this.#fail(new KeyStoreUnavailableError(`key store ${this.#path} cannot be read: no file at that path`));
      return;
    }
    let next: KeyStoreConnection;
    try {
      next = this.#options.open(false);
    } catch (error) {
      const failure = toKeyStoreError(error, `reopening ${this.#path}`);
      this.#fail(failure instanceof KeyStoreUnavailableError ? failure : new KeyStoreUnavailableError(failure.message, { cause: failure }));
      return;
    }
    // The new connection is open before the old one closes, so that close is never the file's last.
    // At most one of #connection and #retired is set.
    const cause = this.#connection === undefined ? 'recovered' : this.#identity !== undefined && sameInode(this.#identity, identity) ? 'rewritten' : 'replaced';
    const previous = this.#connection ?? this.#retired;
    this.#connection = next;
    this.#retired = undefined;
    this.#identity = identity;
    this.#failure = undefined;
    this.#generation += 1;
    previous?.db.close();
    this.#options.onChange?.({ kind: 'reopened', path: this.#path, cause });
  }

  #fail(error: KeyStoreUnavailableError): void {
    const changed = this.#connection !== undefined || this.#failure?.message !== error.message;
    this.#failure = error;
    if (this.#connection !== undefined) {
      this.#retired = this.#connection;
      this.#connection = undefined;
    }
    if (!changed) return;
    this.#generation += 1;
    this.#options.onChange?.({ kind: 'unavailable', path: this.#path, reason: error.message });
  }
}
