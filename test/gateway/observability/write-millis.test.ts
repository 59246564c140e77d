/**
 * writeMillis against what it stands in for: `String(micros / 1000)` (the request line's `durationMs` as
 * pino writes the rounded number), for every microsecond count up to two seconds, a spread of larger ones
 * up to 10^15, negative ones, and the values that are not finite.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MILLIS_BYTES, writeMillis } from '../../../gateway/observability/write-millis.ts';

const target = Buffer.alloc(64);
const written = (micros: number) => target.toString('latin1', 3, 3 + writeMillis(target, 3, micros));
const expected = (micros: number) => (Number.isFinite(micros) ? String(micros / 1000) : 'null');

describe('writeMillis', () => {
  it('writes every whole microsecond count up to two seconds as String writes micros / 1000', () => {
    for (let micros = 0; micros <= 2_000_000; micros++) {
      if (written(micros) !== expected(micros)) assert.equal(written(micros), expected(micros), `micros ${micros}`);
    }
  });

  it('does so for larger and negative counts, -0 and the edge of the safe integers', () => {
    const values = [-0, -1, -999, -1000, -1001, -123456, 2 ** 31, 2 ** 32 + 7, 999_999_999_999_999, 10 ** 15 + 1, Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, 2 ** 60];
    // A fixed spread of magnitudes, so a failure names a value that fails again.
    for (let exponent = 7; exponent <= 15; exponent++) for (let step = 1; step <= 997; step += 12) values.push(Math.floor(10 ** exponent / step) + step);
    for (const micros of values) assert.equal(written(micros), expected(micros), `micros ${micros}`);
  });

  it('writes null for a count that is not finite, as a JSON line does', () => {
    for (const micros of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.equal(written(micros), 'null');
  });

  it('never writes more than MAX_MILLIS_BYTES', () => {
    for (const micros of [-(Number.MAX_SAFE_INTEGER - 1), Number.MAX_SAFE_INTEGER - 1, -123_456_789_012_345, -1.2345678901234567e300, -Number.MAX_VALUE]) assert.ok(writeMillis(target, 0, micros) <= MAX_MILLIS_BYTES, `micros ${micros}`);
  });
});
