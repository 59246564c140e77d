/** Rate-limits a log line that clients can trigger, so a flood of requests cannot fill the log. */

/**
 * Wraps `report` so it runs at most once per `intervalMs` of `now()`; each run is told how many calls
 * were dropped since the previous one.
 */
export function throttleReport<A extends unknown[]>(report: (dropped: number, ...args: A) => void, intervalMs: number, now: () => number): (...args: A) => void {
  let last = Number.NEGATIVE_INFINITY;
  let dropped = 0;
  return (...args) => {
    const at = now();
    if (at - last < intervalMs) {
      dropped += 1;
      return;
    }
    last = at;
    const count = dropped;
    dropped = 0;
    report(count, ...args);
  };
}
