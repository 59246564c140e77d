/** SHA-256 over RFC 8785 (JSON Canonicalization Scheme) encodings: the primitive every revision input uses. */
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize ships CommonJS; under nodenext its default export may arrive wrapped.
const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (value: unknown) => string | undefined;

/** The RFC 8785 canonical JSON text of a value. */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(sortedJsonCopy(value));
  } catch (error) {
    if (error !== NOT_PLAIN_JSON) throw error;
    text = canonicalize(value);
  }
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}

// Thrown by sortedJsonCopy on anything parsed JSON cannot hold, so canonicalize encodes the whole value.
const NOT_PLAIN_JSON = Symbol('not plain JSON');

/**
 * A copy of a value as JSON.parse gives them (null, booleans, finite numbers, strings, dense arrays, objects
 * without toJSON) whose every object has its members in sorted order, so that JSON.stringify of it is
 * canonicalize's text: both quote strings and write numbers as JSON.stringify does. The revision digests
 * every program row's canonical JSON, and canonicalize's reduce over template strings took a fifth of a
 * build worker's time (BENCHMARKS.md, issue 43); native JSON.stringify of the copy takes about 0.6 of it.
 * Anything else throws NOT_PLAIN_JSON, so canonicalize decides it as it always did; a property test holds
 * the two equal on generated values of every kind.
 */
function sortedJsonCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // canonicalize refuses NaN and the infinities itself.
      if (!Number.isFinite(value)) throw NOT_PLAIN_JSON;
      return value;
    case 'object':
      break;
    default:
      throw NOT_PLAIN_JSON;
  }
  if (value === null) return null;
  if ((value as { toJSON?: unknown }).toJSON !== undefined) throw NOT_PLAIN_JSON;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const member: unknown = value[index];
      // A hole is skipped by canonicalize's reduce, where an undefined member is null.
      if (member === undefined && !(index in value)) throw NOT_PLAIN_JSON;
      copy[index] = member === undefined || typeof member === 'symbol' ? null : sortedJsonCopy(member);
    }
    return copy;
  }
  const object = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) {
    const member = object[key];
    if (member === undefined || typeof member === 'symbol') continue;
    // An integer-like key is enumerated before the others whatever the insertion order, and assigning
    // `__proto__` sets the prototype: either would put the copy's members out of order or out of it.
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || key === '__proto__') throw NOT_PLAIN_JSON;
    copy[key] = sortedJsonCopy(member);
  }
  return copy;
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
