/** A bound on the page bytes a run holds at once: a reader waits for room before it reads a body. */

/** Bytes held against a fixed limit; waiters are served in arrival order. */
export interface ByteBudget {
  /** Resolves once `bytes` more fit under the limit (or nothing else is held, for one larger than it), and holds them. */
  acquire(bytes: number): Promise<void>;
  /** Gives back `bytes` held by an earlier acquire. */
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
    // In order: a large request at the head is not overtaken by small ones forever.
    while (waiting.length > 0 && fits(waiting[0]!.bytes)) {
      const next = waiting.shift()!;
      held += next.bytes;
      next.grant();
    }
  };
  return {
    acquire(bytes) {
      if (waiting.length === 0 && fits(bytes)) {
        held += bytes;
        return Promise.resolve();
      }
      return new Promise((grant) => waiting.push({ bytes, grant }));
    },
    release(bytes) {
      held = Math.max(0, held - bytes);
      serve();
    },
    held: () => held,
  };
}
