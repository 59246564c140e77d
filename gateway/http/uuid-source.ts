/**
 * Version 4 UUIDs for request ids, written as ASCII a batch at a time. node's `randomUUID` batches its
 * random bytes too, but builds each string from 36 one-byte pieces, which made it the gateway's largest
 * allocation per request (BENCHMARKS.md, Requests against their ceilings); here each id is one 36-byte slice.
 */
import { randomFillSync } from 'node:crypto';

/** Ids made from one fill of random bytes. */
const BATCH = 128;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Returns a source of version 4 UUIDs (RFC 9562) whose random bits come from `fill`, a CSPRNG in production. */
export function createUuidSource(fill: (bytes: Buffer) => unknown = randomFillSync): () => string {
  const random = Buffer.allocUnsafeSlow(BATCH * 16);
  const ascii = Buffer.allocUnsafeSlow(BATCH * 36);
  let next = BATCH;
  const refill = () => {
    fill(random);
    for (let id = 0; id < BATCH; id++) {
      const from = id * 16;
      // Version 4 in the high nibble of byte 6, the variant 10 in the high bits of byte 8.
      random[from + 6] = ((random[from + 6] as number) & 0x0f) | 0x40;
      random[from + 8] = ((random[from + 8] as number) & 0x3f) | 0x80;
      let at = id * 36;
      for (let index = 0; index < 16; index++) {
        if (index === 4 || index === 6 || index === 8 || index === 10) ascii[at++] = 0x2d;
        const byte = random[from + index] as number;
        ascii[at++] = HEX[byte >> 4] as number;
        ascii[at++] = HEX[byte & 0x0f] as number;
      }
    }
    next = 0;
  };
  return () => {
    if (next === BATCH) refill();
    const at = next++ * 36;
    return ascii.toString('latin1', at, at + 36);
  };
}

/** A fresh random UUID for a request that brought no safe `X-Request-ID`. */
export const randomRequestUuid = createUuidSource();
