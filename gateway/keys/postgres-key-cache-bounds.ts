/** The time and size bounds of a gateway's PostgreSQL key cache (postgres-key-cache.ts). */

/** The time bounds of the cache, in milliseconds, and its size in rows. */
export interface KeyCacheBounds {
  /** How often the listening connection reads the store version (and a lost one is reconnected). */
  readonly revalidateEveryMs: number;
  /** How often every cached row is read again, for changes made with the trigger off. */
  readonly rowRevalidateEveryMs: number;
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
 * Defaults meeting the issues' bounds: a change reaches every gateway within 1 s even if its
 * notification is lost (probe every 250 ms), a change no trigger announced within 10 s (rows re-read
 * every 5 s), a store that stops answering stops cached keys within 1 s, and a request never waits on
 * the store for more than 50 ms.
 */
export const defaultKeyCacheBounds: KeyCacheBounds = {
  revalidateEveryMs: 250,
  rowRevalidateEveryMs: 5_000,
  staleAfterMs: 1000,
  probeTimeoutMs: 500,
  lookupDeadlineMs: 50,
  connectTimeoutMs: 1000,
  maxRows: 10_000,
};
