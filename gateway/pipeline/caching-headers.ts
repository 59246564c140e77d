/**
 * The Cache-Control of each success caching policy (spec 4.4), which a route declares in the route table
 * (`caching`): the one source of the runtime header and of its OpenAPI description.
 */
import type { SuccessCaching } from '../openapi/openapi-responses.ts';
import type { HeaderList } from './route-exchange.ts';

/** `Cache-Control` of a successful response, by policy. */
export const CACHE_CONTROL: Readonly<Record<SuccessCaching, string>> = {
  licensed: 'private, no-store',
  cacheable: 'public, max-age=300, must-revalidate',
  revalidate: 'no-cache',
  report: 'public, max-age=3600',
};

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
