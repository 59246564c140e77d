/** An undici interceptor that refuses, before any socket or proxy is involved, a request whose URL the policy refuses. */
import type { Dispatcher } from 'undici';
import { DestinationRefused, refusedUrl, type OutboundPolicy } from './outbound-policy.ts';

/**
 * Wraps a dispatcher's `dispatch`: every request, each redirect hop included (the checker follows
 * redirects itself), is judged by its origin first. Through a proxy this is the only check that can
 * apply, since the proxy resolves names: IP literals and the names that always mean this machine are
 * refused here; a made-up or public name goes on to the proxy.
 */
export function guardDestinations(policy: OutboundPolicy): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const refusal = refusedUrl(String(options.origin), policy);
    // Thrown synchronously: undici's `request` turns it into the rejection of its promise.
    if (refusal !== undefined) throw new DestinationRefused(refusal);
    return dispatch(options, handler);
  };
}
