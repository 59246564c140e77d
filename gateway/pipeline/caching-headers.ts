/** The caching headers a response carries at run time, from the policies of gateway/vocabulary/success-caching.ts. */
import { CACHE_CONTROL, type SuccessCaching } from '../vocabulary/success-caching.ts';
import type { HeaderList } from './route-exchange.ts';

/**
 * Headers of every response a licensed route sends after admitting the key, errors included: per-key data
 * is never stored by shared caches, and a cache keyed on the URL alone must not mix keys.
 */
export const LICENSED_RESPONSE_HEADERS: HeaderList = [
  ['Cache-Control', CACHE_CONTROL.licensed],
  ['Vary', 'X-Api-Key'],
];

/**
 * The caching headers a route's success adds after its handler's own: none for licensed routes, which
 * carry LICENSED_RESPONSE_HEADERS from their access step, the policy's Cache-Control otherwise.
 */
export function successCachingHeaders(caching: SuccessCaching): HeaderList {
  return caching === 'licensed' ? [] : [['Cache-Control', CACHE_CONTROL[caching]]];
}
