/** A bound on the page bytes a run holds at once: a reader waits for room before it reads a body. */

/**
 * Bytes held against a fixed limit. A waiter is served as soon as it fits, in arrival order among those
 * that fit: a large request waiting does not hold back the small pages behind it.
 */
export interface ByteBudget {
  /**
   * Resolves once `bytes` more fit under the limit (or nothing else is held, for one larger than it), and
   * holds them; rejects, holding nothing, when `signal` aborts first.
   */
  acquire(bytes: number, signal?: AbortSignal): Promise<void>;
  /**
   * Holds `bytes` at once, past the limit if need be: for bytes already in memory (an exchange captured for
   * the archive as it arrives), which cannot wait, but whose weight later readers must wait for.
   */
  take(bytes: number): void;
  /** Gives back `bytes` held by an earlier acquire or take. */
  release(bytes: number): void;
  /** Bytes held now. */
  held(): number;
}

/** Creates a budget of `limit` bytes. */
export function createByteBudget(limit: number): ByteBudget {
  if (!(limit > 0)) throw new Error(`page byte budget must be a positive number of bytes, got ${limit}`);
  let held = 0;
  const waiting: Array<{ bytes: number; grant: () => void }> = [];
  const fits = (bytes: number) => held === 0 || held + bytes <= limit;
  const serve = () => {
    for (let index = 0; index < waiting.length;) {
      const next = waiting[index]!;
      if (!fits(next.bytes)) {
        index += 1;
        continue;
      }
      waiting.splice(index, 1);
      held += next.bytes;
      next.grant();
    }
  };
  return {
    acquire(bytes, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      if (fits(bytes)) {
        held += bytes;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const index = waiting.indexOf(waiter);
          if (index !== -1) waiting.splice(index, 1);
          reject(signal!.reason as Error);
          // The head may have been the one blocking the rest.
          serve();
        };
        const waiter = {
          bytes,
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(waiter);
      });
    },
    take(bytes) {
      held += bytes;
    },
    release(bytes) {
      held = Math.max(0, held - bytes);
      serve();
    },
    held: () => held,
  };
}
