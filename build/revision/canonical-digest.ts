/** SHA-256 over RFC 8785 (JSON Canonicalization Scheme) encodings: the primitive every revision input uses. */
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize ships CommonJS; under nodenext its default export may arrive wrapped.
const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (value: unknown) => string | undefined;

/** The RFC 8785 canonical JSON text of a value. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SHA-256 of a value's canonical JSON. */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * SHA-256 of a multiset of values, independent of their order: the canonical JSON of the array whose
 * members are sorted by the UTF-8 bytes of their canonical JSON (a language-neutral order).
 */
export function unorderedDigest(values: readonly unknown[]): string {
  const encoded = values.map((value) => Buffer.from(canonicalJson(value), 'utf8')).sort(Buffer.compare);
  const hash = createHash('sha256').update('[');
  encoded.forEach((member, index) => {
    if (index > 0) hash.update(',');
    hash.update(member);
  });
  return hash.update(']').digest('hex');
}
