/**
 * A request line's `durationMs` written as bytes: `micros / 1000` as `String` writes that number, digit by
 * digit. `String` of a fractional double goes to V8's runtime (its shortest-text algorithm), about a
 * microsecond of a loaded gateway's request in the bench profile (issue 43); a duration rounded to the
 * microsecond needs none of it. For an integer `micros` below 2^53 / 1000 the shortest text of
 * `micros / 1000` is its decimal form: the nearest double to that decimal, and no shorter decimal lies
 * within half its unit in the last place (test/gateway/observability/write-millis.test.ts compares the two).
 */

/** Most bytes `writeMillis` writes: String's longest number, a sign, seventeen digits, a point and `e+308`. */
export const MAX_MILLIS_BYTES = 24;

/** Writes `micros / 1000` (`micros` a whole number of microseconds) at `at`; returns the bytes written. */
export function writeMillis(target: Buffer, at: number, micros: number): number {
  const start = at;
  if (!Number.isFinite(micros) || Math.abs(micros) >= Number.MAX_SAFE_INTEGER) {
    // `null`, as a JSON line writes a number that is not finite; out of range, String's own text.
    const text = Number.isFinite(micros) ? String(micros / 1000) : 'null';
    return target.write(text, at, 'latin1');
  }
  let rest = micros;
  if (rest < 0) {
    target[at++] = 45;
    rest = -rest;
  }
  const whole = Math.floor(rest / 1000);
  const fraction = rest - whole * 1000;
  let digits = 1;
  for (let bound = 10; bound <= whole; bound *= 10) digits++;
  let value = whole;
  for (let index = digits - 1; index >= 0; index--) {
    target[at + index] = 48 + (value % 10);
    value = Math.floor(value / 10);
  }
  at += digits;
  if (fraction !== 0) {
    const tenths = Math.floor(fraction / 100);
    const hundredths = Math.floor(fraction / 10) % 10;
    const thousandths = fraction % 10;
    target[at++] = 46;
    target[at++] = 48 + tenths;
    if (hundredths !== 0 || thousandths !== 0) target[at++] = 48 + hundredths;
    if (thousandths !== 0) target[at++] = 48 + thousandths;
  }
  return at - start;
}
