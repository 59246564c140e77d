/** Runs at most `limit` async jobs at once, the rest waiting in arrival order. */

/** A function that runs `job` once a slot is free and resolves with its result. */
export type Limiter = <T>(job: () => Promise<T>) => Promise<T>;

/** Creates a limiter with `limit` slots (at least 1). */
export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    active -= 1;
    waiting.shift()?.();
  };
  return async (job) => {
    if (active >= Math.max(1, limit)) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await job();
    } finally {
      release();
    }
  };
}
