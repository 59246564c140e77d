/** How long a link check waits before trying a request again. */

/**
 * The delay a `Retry-After` header asks for, in ms: delay-seconds or an HTTP-date (RFC 9110 10.2.3),
 * a date in the past meaning 0. undefined when the header is absent or unreadable.
 */
export function retryAfterMs(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday and month; Date.parse alone would read "-5" as a year.
  const date = /^[a-z]{3}, /i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Exponential backoff with jitter: before retry `n` (1-based), a delay drawn uniformly from
 * [base * 2^(n-1), base * 2^n). Jitter keeps checkers that failed together from retrying together.
 */
export function backoffMs(retry: number, baseMs: number, random: () => number): number {
  const floor = baseMs * 2 ** (retry - 1);
  return Math.round(floor + random() * floor);
}
