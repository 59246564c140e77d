import { decideLimit, hasRoom } from './decide-limit.ts';
import type { LimitTable, LimitTier } from './limit-table.ts';
import { tablePolicies, windowSlots, type LimitPolicy, type LimitSubject } from './limit-windows.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from './rate-limiter.ts';

/** Inputs of `MemoryRateLimiter`: the limits and the clock (epoch milliseconds). */
export interface MemoryRateLimiterOptions {
  readonly limits: LimitTable;
  readonly now: () => number;
  /** How often ended windows are swept out, in clock milliseconds; 60 s unless told. */
  readonly sweepIntervalMs?: number;
}

interface Counter {
  count: number;
  readonly endMs: number;
}

/**
 * The embedded default: window counters in this process's memory, so each gateway process enforces its
 * own limits. Memory stays bounded by the subjects active in each window's lifetime: at most once per
 * sweep interval, a call drops every counter whose window has ended (amortized O(1) per request).
 */
export class MemoryRateLimiter implements RateLimiter {
  /** Counters live in this process. */
  readonly scheme = 'memory';
  readonly #policies: Readonly<Record<LimitSubject, LimitPolicy>>;
  readonly #now: () => number;
  readonly #sweepIntervalMs: number;
  // Keyed by subject, window name and window start, so a new window starts from a fresh counter.
  readonly #counters = new Map<string, Counter>();
  #nextSweepMs = -Infinity;
  #closed = false;

  /** Takes the limits and clock; does no I/O. */
  constructor(options: MemoryRateLimiterOptions) {
    this.#policies = tablePolicies(options.limits);
    this.#now = options.now;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** Number of live window counters, for tests and metrics. */
  get size(): number {
    return this.#counters.size;
  }

  /** Counts one licensed request of `keyId` under its current `tier`'s limits. */
  consumeKey(keyId: string, tier: LimitTier): Promise<LimitDecision> {
    return settled(() => this.#consume(`k:${keyId}`, tier));
  }

  /** `consumeKey` without the promise: the counters are here, so the answer is at hand. */
  readonly consumeKeyNow = (keyId: string, tier: LimitTier): LimitDecision => this.#consume(`k:${keyId}`, tier);

  /** Counts one keyless request from client `address` under the public limit. */
  consumePublic(address: string): Promise<LimitDecision> {
    return settled(() => this.#consume(`a:${address}`, 'public'));
  }

  /** `consumePublic` without the promise. */
  readonly consumePublicNow = (address: string): LimitDecision => this.#consume(`a:${address}`, 'public');

  /** Forgets every counter; later calls fail with `RateLimitStorageError`. */
  close(): Promise<void> {
    this.#closed = true;
    this.#counters.clear();
    return Promise.resolve();
  }

  #consume(subjectKey: string, subject: LimitSubject): LimitDecision {
    if (this.#closed) throw new RateLimitStorageError('rate limiter is closed');
    const policy = this.#policies[subject];
    if (policy === undefined) throw new TypeError(`unknown rate-limit tier ${JSON.stringify(subject)}`);
    const nowMs = this.#now();
    this.#sweep(nowMs);
    const slots = windowSlots(policy, nowMs);
    const counters = slots.map((slot) => {
      const name = `${subjectKey}\n${slot.name}\n${slot.startMs}`;
      let counter = this.#counters.get(name);
      if (counter === undefined) {
        counter = { count: 0, endMs: slot.endMs };
        this.#counters.set(name, counter);
      }
      return counter;
    });
    const allowed = hasRoom(slots, counters.map((counter) => counter.count));
    if (allowed) for (const counter of counters) counter.count += 1;
    return decideLimit(policy, slots, counters.map((counter) => counter.count), allowed, nowMs);
  }

  #sweep(nowMs: number): void {
    if (nowMs < this.#nextSweepMs) return;
    this.#nextSweepMs = nowMs + this.#sweepIntervalMs;
    for (const [name, counter] of this.#counters) {
      if (counter.endMs <= nowMs) this.#counters.delete(name);
    }
  }
}

/** The result of `count` as a settled promise: a throw becomes a rejection, as from an async function. */
function settled(count: () => LimitDecision): Promise<LimitDecision> {
  try {
    return Promise.resolve(count());
  } catch (error) {
    return Promise.reject(error);
  }
}
