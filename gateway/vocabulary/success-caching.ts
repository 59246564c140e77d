/**
 * The success caching policies (spec 4.4) a route declares in the route table (`caching`), and the
 * Cache-Control of each: the one source of the runtime header and of its OpenAPI description. A vocabulary
 * below the route table, the OpenAPI generator and the pipeline, which all read it (STYLE 27).
 */

/** How a successful response may be cached, which decides its caching headers. */
export type SuccessCaching = 'licensed' | 'cacheable' | 'revalidate' | 'report';

/** Whether a success under `caching` may be stored by a shared cache (its Cache-Control says `public`). */
export function sharedCacheMayStore(caching: SuccessCaching): boolean {
  return caching === 'cacheable' || caching === 'report';
}

/**
 * `Cache-Control` of a successful response, by policy. Every keyless success carries the caller's own
 * `X-Request-ID` and rate-limit counters, so none is fresh for a second caller: a shared cache may store it
 * but must ask the gateway before each reuse (`no-cache`), whose answer carries that caller's headers.
 */
export const CACHE_CONTROL: Readonly<Record<SuccessCaching, string>> = {
  licensed: 'private, no-store',
  cacheable: 'public, no-cache',
  revalidate: 'no-cache',
  report: 'public, no-cache',
};
