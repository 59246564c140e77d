/**
 * Which routes' successes may be compressed: one rule, read by both adapters (through encodeReply) and by
 * the OpenAPI generator, so what is declared is what is sent.
 */
import type { AccessClass } from '../vocabulary/access-class.ts';
import type { SuccessCaching } from '../vocabulary/success-caching.ts';

/**
 * False for the probes (a few bytes, never 1 KiB) and for dataset health and readiness (`revalidate`):
 * their bodies are computed per request, so a stored compressed form would serve no second request and
 * compressing each would be exactly the per-request cost the store exists to avoid.
 */
export function compressesSuccess(access: AccessClass, caching: SuccessCaching): boolean {
  return access !== 'probe' && caching !== 'revalidate';
}
