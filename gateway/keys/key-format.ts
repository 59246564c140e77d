/**
 * The plaintext API key format and the public key id format.
 *
 * A key is `hra_<t|n|c>_<body><check>`, 44 characters in all:
 * - `t`, `n`, `c`: the tier the key was issued for (trial, nonprofit, commercial). A hint for humans
 *   reading a key; the store's tier is authoritative at request time.
 * - `body`: 32 uniformly random base62 symbols from `crypto.randomBytes` (about 190 bits).
 * - `check`: 6 base62 symbols, the first 8 bytes of SHA-256(`hra_<letter>_<body>`) read as a big-endian
 *   integer modulo 62^6. It catches mistyped or truncated keys without a store lookup: a random
 *   well-shaped string passes with probability 62^-6 (about 1 in 5.7e10).
 *
 * The store keeps only `digestKey(key)`, the SHA-256 hex of the whole key; a lost key cannot be
 * recovered. A key id is `key_` + 12 base62 symbols: public, safe for logs, CLI output and support.
 */
import { createHash } from 'node:crypto';
import { encodeBase62Fixed, randomBase62 } from './base62.ts';
import type { KeyTier } from './key-tiers.ts';

declare const wellFormedKeyBrand: unique symbol;

/** A key whose shape and checksum are right; only `parseKeyShape` and `generateKey` produce one. */
export type WellFormedKey = string & { readonly [wellFormedKeyBrand]: true };

/** What the shape check says about a raw key, before any store lookup. */
export type KeyShape =
  | { readonly kind: 'well-formed'; readonly key: WellFormedKey; readonly tierHint: KeyTier }
  | { readonly kind: 'malformed'; readonly reason: 'shape' | 'checksum' };

/** Length of the random body of a key. */
export const keyBodyLength = 32;

/** Length of the checksum that ends a key. */
export const keyChecksumLength = 6;

const tierLetters = { trial: 't', nonprofit: 'n', commercial: 'c' } as const satisfies Record<KeyTier, string>;
const tiersByLetter: Readonly<Record<string, KeyTier>> = { t: 'trial', n: 'nonprofit', c: 'commercial' };
// `hra_`, a tier letter and `_`: how every key begins, for the shape check and for spotting a key elsewhere.
const keyPrefix = `hra_([${Object.values(tierLetters).join('')}])_`;
const keyPattern = new RegExp(`^(${keyPrefix}[0-9A-Za-z]{${keyBodyLength}})([0-9A-Za-z]{${keyChecksumLength}})$`);
const keyIdPattern = /^key_[0-9A-Za-z]{12}$/;

// Unanchored: a key glued behind anything (`x-hra_c_...`, `req.HRA_C_...`) is still a key.
const keyPrefixAnywherePattern = new RegExp(keyPrefix, 'i');

/**
 * True when `raw` holds a key's beginning anywhere, in any letter case: a secret, or a near-miss of one,
 * which must not be copied where keys never go (a request id, which is logged and echoed).
 */
export function containsKeyShape(raw: string): boolean {
  return keyPrefixAnywherePattern.test(raw);
}

/** The checksum of a key's `hra_<letter>_<body>` part. */
export function computeKeyChecksum(prefixAndBody: string): string {
  const hash = createHash('sha256').update(prefixAndBody, 'utf8').digest();
  return encodeBase62Fixed(hash.readBigUInt64BE(0), keyChecksumLength);
}

/** Issues a new random plaintext key for `tier` (shown once, then only its digest is kept). */
export function generateKey(tier: KeyTier): WellFormedKey {
  const prefixAndBody = `hra_${tierLetters[tier]}_${randomBase62(keyBodyLength)}`;
  return `${prefixAndBody}${computeKeyChecksum(prefixAndBody)}` as WellFormedKey;
}

/** Checks a raw key's shape and checksum without touching the store. */
export function parseKeyShape(raw: string): KeyShape {
  const match = keyPattern.exec(raw);
  const prefixAndBody = match?.[1];
  const letter = match?.[2];
  const checksum = match?.[3];
  if (prefixAndBody === undefined || letter === undefined || checksum === undefined) {
    return { kind: 'malformed', reason: 'shape' };
  }
  const tierHint = tiersByLetter[letter];
  if (tierHint === undefined) return { kind: 'malformed', reason: 'shape' };
  if (computeKeyChecksum(prefixAndBody) !== checksum) return { kind: 'malformed', reason: 'checksum' };
  return { kind: 'well-formed', key: raw as WellFormedKey, tierHint };
}

/** The SHA-256 hex digest under which a key is stored and looked up. */
export function digestKey(key: WellFormedKey): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Issues a new public key id (`key_` + 12 base62 symbols). */
export function generateKeyId(): string {
  return `key_${randomBase62(12)}`;
}

/** True when `raw` has the shape of a key id (it may still name no key). */
export function isKeyIdShape(raw: string): boolean {
  return keyIdPattern.test(raw);
}
