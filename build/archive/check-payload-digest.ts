/** Checks a payload against a `WARC-Payload-Digest` header (`sha256:` + base32, as the archive writes it). */
import { createHash } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * Undefined when `payload` hashes to `header`; otherwise why not. Only SHA-256 digests are read, in
 * base32 (RFC 4648, padding optional) or hex, since the archive writes no other.
 */
export function checkPayloadDigest(header: string | null | undefined, payload: Uint8Array): string | undefined {
  if (header === null || header === undefined || header.trim() === '') return 'the record has no WARC-Payload-Digest';
  const match = /^sha-?256:([A-Za-z2-7]+=*|[0-9a-fA-F]{64})$/i.exec(header.trim());
  if (match === null) return `WARC-Payload-Digest ${JSON.stringify(header)} is not a sha256 digest`;
  const recorded = /^[0-9a-fA-F]{64}$/.test(match[1]!) ? match[1]!.toLowerCase() : base32ToHex(match[1]!);
  const actual = createHash('sha256').update(payload).digest('hex');
  if (recorded === actual) return undefined;
  return `payload does not hash to its WARC-Payload-Digest (sha256 ${recorded ?? header}, payload ${actual})`;
}

function base32ToHex(text: string): string | undefined {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return Buffer.from(bytes).toString('hex');
}
