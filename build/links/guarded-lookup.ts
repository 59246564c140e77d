/**
 * The resolver the checker's own connections use (no proxy): every address a name resolves to is judged
 * by the outbound policy before the socket connects, and the socket connects only to an address judged
 * here, so a name that answers public at one moment and loopback the next (DNS rebinding) gets nowhere.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { DestinationRefused, refusedAddress, type OutboundPolicy } from './outbound-policy.ts';

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true` by default; tests inject one). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo), every address, in its order. */
export const resolveWithSystem: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * Creates a `lookup` for `net.connect`/`tls.connect` (undici's `connect` option). One refused address
 * refuses the name: a resolver may hand out its answers in any order, and the connection may try each.
 * Resolver errors pass through unchanged (ENOTFOUND, EAI_AGAIN), so the no-network guard still sees them.
 */
export function createGuardedLookup(policy: OutboundPolicy, resolve: ResolveHost = resolveWithSystem): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((one) => one.family === options.family) : addresses;
        for (const { address } of addresses) {
          const refusal = refusedAddress(address, policy);
          if (refusal !== undefined) return callback(new DestinationRefused(`${hostname} resolves to ${refusal}`), '', 0);
        }
        const [first] = wanted;
        if (first === undefined) {
          return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', 0);
        }
        if (options.all) return callback(null, wanted);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
