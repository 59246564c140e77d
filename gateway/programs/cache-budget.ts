/**
 * One memory budget (`--cache-mb`) split between the gateway's response caches, so an operator sizes one
 * number against the machine. Shares follow what each cache saves per byte: unfiltered collections are
 * the hottest bodies; per-city record lists serve every filtered miss of their city; a change-feed page
 * costs a 100-row query and a cursor HMAC to rebuild; compressed forms are a fifth to a tenth of their
 * body and save that much of every response to a client that accepts them.
 */

/** Byte bounds of each cache. */
export interface CacheBudget {
  /** Unfiltered collection bodies, by revision and city. */
  unfilteredBytes: number;
  /** Assembled filtered collections, by revision, city and filters. */
  filteredBytes: number;
  /** Per-city record lists (bodies and parsed facets) that filtered collections are assembled from. */
  recordListBytes: number;
  /** Detail record bodies. */
  recordBytes: number;
  /** Change-feed pages, by revision and query. */
  changePageBytes: number;
  /** Compressed (br, gzip) forms of the served snapshot's bodies (gateway/encoding/encoded-bodies.ts). */
  encodedBytes: number;
}

/** The shares of the budget, in the order of CacheBudget. */
export const CACHE_SHARES = { unfilteredBytes: 0.3, filteredBytes: 0.15, recordListBytes: 0.2, recordBytes: 0.1, changePageBytes: 0.1, encodedBytes: 0.15 } as const satisfies Record<keyof CacheBudget, number>;

/** The default budget: 48 MiB, which keeps the gateway near 150 MB serving the published scale. */
export const DEFAULT_CACHE_BYTES = 48 * 2 ** 20;

/** Splits `totalBytes` by CACHE_SHARES (each cache gets at least 1 byte, so a bound is never zero). */
export function splitCacheBudget(totalBytes: number = DEFAULT_CACHE_BYTES): CacheBudget {
  const share = (fraction: number) => Math.max(1, Math.floor(totalBytes * fraction));
  return {
    unfilteredBytes: share(CACHE_SHARES.unfilteredBytes),
    filteredBytes: share(CACHE_SHARES.filteredBytes),
    recordListBytes: share(CACHE_SHARES.recordListBytes),
    recordBytes: share(CACHE_SHARES.recordBytes),
    changePageBytes: share(CACHE_SHARES.changePageBytes),
    encodedBytes: share(CACHE_SHARES.encodedBytes),
  };
}

/**
 * What a cached entry costs beyond its body: the key string, the LRU's bookkeeping and the Buffer object.
 * Measured roughly (RSS growth over entry bytes with small bodies); it keeps many tiny entries from
 * slipping past the bound.
 */
export const ENTRY_OVERHEAD_BYTES = 256;
