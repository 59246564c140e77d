/** A clock and timer tests drive by hand (STYLE 19): nothing sleeps, and boundaries are exact. */
import type { GateTimers } from '../../build/links/host-gate.ts';

/** Fake timers: `advance` moves the clock and runs what fell due, in time order. */
export class FakeTimers implements GateTimers {
  #now = 0;
  #pending: Array<{ at: number; callback: () => void }> = [];

  now = (): number => this.#now;

  setTimeout = (callback: () => void, ms: number): unknown => {
    this.#pending.push({ at: this.#now + Math.max(0, ms), callback });
    return undefined;
  };

  /** Moves the clock forward by `ms`, running each due callback at its own time, then lets promises settle. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await settle();
      this.#pending.sort((a, b) => a.at - b.at);
      const next = this.#pending[0];
      if (next === undefined || next.at > end) break;
      this.#pending.shift();
      this.#now = next.at;
      next.callback();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets queued promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
