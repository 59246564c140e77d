import { decideLimit, hasRoom } from './decide-limit.ts';
import type { LimitTable, LimitTier } from './limit-table.ts';
import { tablePolicies, windowSlot, type LimitPolicy, type LimitSubject, type PolicyWindow, type WindowName, type WindowSlot } from './limit-windows.ts';
import { RateLimitStorageError, type LimitDecision, type RateLimiter } from './rate-limiter.ts';

/** Inputs of `MemoryRateLimiter`: the limits and the clock (epoch milliseconds). */
export interface MemoryRateLimiterOptions {
  readonly limits: LimitTable;
  readonly now: () => number;
  /** How often ended windows are swept out, in clock milliseconds; 60 s unless told. */
  readonly sweepIntervalMs?: number;
}

/** One window's count, with the window as placed on the clock (what decideLimit reports from). */
interface Counter {
  /** The policy window it was placed for: a tier change brings another, and the slot is placed again. */
  window: PolicyWindow;
  slot: WindowSlot;
  count: number;
}

/**
 * One subject's counters by window name, so a tier change keeps its counts (the windows are the same
 * minute and day); `slots` and `counts` are reused from call to call, so a request allocates no arrays.
 */
interface SubjectCounters {
  readonly byWindow: Partial<Record<WindowName, Counter>>;
  readonly slots: WindowSlot[];
  readonly counts: number[];
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
  // Keys and client addresses apart, so neither can spend the other's windows, and no subject string is
  // built per request. A counter found in an ended window is placed again at its next request.
  readonly #keys = new Map<string, SubjectCounters>();
  readonly #addresses = new Map<string, SubjectCounters>();
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
    let size = 0;
    for (const subjects of [this.#keys, this.#addresses]) {
      for (const counters of subjects.values()) size += Object.keys(counters.byWindow).length;
    }
    return size;
  }

  /** Counts one licensed request of `keyId` under its current `tier`'s limits. */
  consumeKey(keyId: string, tier: LimitTier): Promise<LimitDecision> {
    return settled(() => this.#consume(this.#keys, keyId, tier));
  }

  /** `consumeKey` without the promise: the counters are here, so the answer is at hand. */
  readonly consumeKeyNow = (keyId: string, tier: LimitTier): LimitDecision => this.#consume(this.#keys, keyId, tier);

  /** Counts one keyless request from client `address` under the public limit. */
  consumePublic(address: string): Promise<LimitDecision> {
    return settled(() => this.#consume(this.#addresses, address, 'public'));
  }

  /** `consumePublic` without the promise. */
  readonly consumePublicNow = (address: string): LimitDecision => this.#consume(this.#addresses, address, 'public');

  /** Forgets every counter; later calls fail with `RateLimitStorageError`. */
  close(): Promise<void> {
    this.#closed = true;
    this.#keys.clear();
    this.#addresses.clear();
    return Promise.resolve();
  }

  #consume(subjects: Map<string, SubjectCounters>, id: string, subject: LimitSubject): LimitDecision {
    if (this.#closed) throw new RateLimitStorageError('rate limiter is closed');
    const policy = this.#policies[subject];
    if (policy === undefined) throw new TypeError(`unknown rate-limit tier ${JSON.stringify(subject)}`);
    const nowMs = this.#now();
    this.#sweep(nowMs);
    let counters = subjects.get(id);
    if (counters === undefined) {
      counters = { byWindow: {}, slots: [], counts: [] };
      subjects.set(id, counters);
    }
    const { byWindow, slots, counts } = counters;
    // Only when the tier's window count changed: setting an array's length is a runtime call even when it
    // stays the same (0.6% of the gateway's samples under wrk, issue 43).
    if (slots.length !== policy.length) {
      slots.length = policy.length;
      counts.length = policy.length;
    }
    for (let index = 0; index < policy.length; index++) {
      const window = policy[index] as PolicyWindow;
      let counter = byWindow[window.name];
      if (counter === undefined || nowMs < counter.slot.startMs || nowMs >= counter.slot.endMs) {
        counter = { window, slot: windowSlot(window, nowMs), count: 0 };
        byWindow[window.name] = counter;
      } else if (counter.window !== window) {
        // Another tier's quota for the same minute or day: the count carries over.
        counter.window = window;
        counter.slot = { ...window, startMs: counter.slot.startMs, endMs: counter.slot.endMs };
      }
      slots[index] = counter.slot;
      counts[index] = counter.count;
    }
    const allowed = hasRoom(slots, counts);
    if (allowed) {
      for (let index = 0; index < policy.length; index++) {
        const counter = byWindow[(policy[index] as PolicyWindow).name] as Counter;
        counts[index] = ++counter.count;
      }
    }
    return decideLimit(policy, slots, counts, allowed, nowMs);
  }

  #sweep(nowMs: number): void {
    if (nowMs < this.#nextSweepMs) return;
    this.#nextSweepMs = nowMs + this.#sweepIntervalMs;
    for (const subjects of [this.#keys, this.#addresses]) {
      for (const [id, counters] of subjects) {
        let live = 0;
        for (const name of Object.keys(counters.byWindow) as WindowName[]) {
          if ((counters.byWindow[name] as Counter).slot.endMs <= nowMs) delete counters.byWindow[name];
          else live += 1;
        }
        if (live === 0) subjects.delete(id);
      }
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
