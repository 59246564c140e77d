/** Turns a stored event's `detectedAt` into epoch milliseconds, for the feed's `since` window. */

// RFC 3339 allows a leap second (`23:59:60`) that Date.parse refuses; it belongs to the same UTC day.
const LEAP_SECOND = /:60(?=(\.\d+)?(Z|[+-]\d{2}:\d{2})$)/i;

/**
 * Returns the instant of an RFC 3339 date-time with any offset (the corpus format). A leap second is
 * read as the second before it; NaN only for text the corpus validator would never have let in.
 */
export function detectedAtMillis(detectedAt: string): number {
  const millis = Date.parse(detectedAt);
  return Number.isNaN(millis) ? Date.parse(detectedAt.replace(LEAP_SECOND, ':59')) : millis;
}
