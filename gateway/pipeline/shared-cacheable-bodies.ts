/**
 * The bodies a shared cache may store, which the gateway compresses ahead of use (gateway/encoding/
 * encoded-bodies.ts `prepare`): a cache that stores the first answer to a br request keeps it, so that
 * answer must already be br. They are the successes of the keyless routes a shared cache may store
 * (gateway/vocabulary/success-caching.ts) that take no path parameter, read through each route's own
 * handler as a request without headers reads them, so the route table stays their one source.
 */
import { sharedCacheMayStore } from '../vocabulary/success-caching.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';
import type { RouteChain } from './route-chain.ts';
import type { RouteRequest } from './route-exchange.ts';

/**
 * The bodies of `chains`' shared-cacheable routes under `snapshot`, or only of those whose entry is
 * `snapshotIndependent` (their handlers read nothing from it); a route that refuses (a missing report) has none.
 */
export function sharedCacheableBodies(chains: readonly RouteChain[], snapshot: Snapshot, snapshotIndependentOnly = false): (Buffer | string)[] {
  const request: RouteRequest = { method: 'GET', params: {}, querystring: '', snapshot, header: () => '', clientAddress: () => '' };
  const bodies: (Buffer | string)[] = [];
  for (const chain of chains) {
    const { route } = chain;
    if (!chain.compresses || route.access !== 'public' || !sharedCacheMayStore(route.caching) || route.path.includes(':')) continue;
    if (snapshotIndependentOnly && route.snapshotIndependent !== true) continue;
    try {
      bodies.push(chain.handler(request).body);
    } catch {
      // Refused (an artifact the revision lacks, a snapshot that failed its check): nothing to compress.
    }
  }
  return bodies;
}
