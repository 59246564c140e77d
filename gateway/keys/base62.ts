/**
 * Base62 text for key secrets, key ids and key checksums: letters and digits only, so a key survives
 * copy-paste, shell quoting, URLs and HTTP headers unchanged and a double-click selects all of it.
 */
import { randomBytes } from 'node:crypto';

/** The 62 symbols in value order (`0` is 0, `z` is 61). */
export const base62Alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Matches a string made only of base62 symbols (any length, including empty). */
export const base62Pattern = /^[0-9A-Za-z]*$/;

// 248 is the largest multiple of 62 that fits in a byte; rejecting bytes >= 248 keeps every symbol
// equally likely (a plain `byte % 62` would favour the first 8 symbols).
const unbiasedByteLimit = 248;

/** Returns `length` uniformly random base62 symbols drawn from `crypto.randomBytes`. */
export function randomBase62(length: number, random: (size: number) => Buffer = randomBytes): string {
  let text = '';
  while (text.length < length) {
    for (const byte of random(length - text.length + 8)) {
      if (byte < unbiasedByteLimit && text.length < length) text += base62Alphabet[byte % 62];
    }
  }
  return text;
}

/** Writes `value` modulo 62^length as exactly `length` base62 symbols, most significant first. */
export function encodeBase62Fixed(value: bigint, length: number): string {
  let rest = value;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    text = base62Alphabet[Number(rest % 62n)] + text;
    rest /= 62n;
  }
  return text;
}
