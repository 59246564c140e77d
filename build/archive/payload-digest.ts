// The two spellings of one payload digest: hex SHA-256 in the index and the evidence lines, and the WARC
// header's `sha256:<base32>` (RFC 4648, padded, as warcio writes it).
import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Hex SHA-256 of a payload. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A hex SHA-256 written as a WARC digest value (`WARC-Payload-Digest`, `WARC-Block-Digest`). */
export function warcPayloadDigest(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return `sha256:${out}`;
}

/** The hex SHA-256 of a `sha256:<base32>` WARC digest value, or undefined when it is not one. */
export function hexOfWarcPayloadDigest(value: string): string | undefined {
  const match = /^sha256:([A-Z2-7]+)=*$/i.exec(value.trim());
  if (!match) return undefined;
  let bits = 0;
  let acc = 0;
  const bytes: number[] = [];
  for (const char of match[1]!.toUpperCase()) {
    acc = (acc << 5) | ALPHABET.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((acc >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return bytes.length === 32 ? Buffer.from(bytes).toString('hex') : undefined;
}
