/**
 * Politeness per host: at most `perHost` requests in flight to one host, and at least `intervalMs`
 * between the starts of two requests to it, whatever the global concurrency allows.
 */

/** The clock and timer the gate runs on, passed in so tests can drive time. */
export interface GateTimers {
  /** Monotonic milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
}

/** Options of createHostGate. */
export interface HostGateOptions {
  perHost: number;
  intervalMs: number;
  timers: GateTimers;
}

/** Hands out request slots per host. */
export interface HostGate {
  /** Resolves when a request to `host` may start; call the returned function when it has finished. */
  acquire(host: string): Promise<() => void>;
  /** Nothing starts on `host` before `untilMs` (Retry-After, backoff); never moves the time earlier. */
  defer(host: string, untilMs: number): void;
  /** The earliest time a new request to `host` could start, ignoring requests in flight. */
  readyAt(host: string): number;
  /** Requests in flight to `host`. */
  inFlight(host: string): number;
}

interface HostState {
  inFlight: number;
  nextStart: number;
  waiters: Array<(release: () => void) => void>;
  timerSet: boolean;
}

/** Creates a gate; its state grows with the number of hosts contacted, not with URLs. */
export function createHostGate(options: HostGateOptions): HostGate {
  const { perHost, intervalMs, timers } = options;
  const hosts = new Map<string, HostState>();
  const stateOf = (host: string): HostState => {
    let state = hosts.get(host);
    if (!state) {
      state = { inFlight: 0, nextStart: Number.NEGATIVE_INFINITY, waiters: [], timerSet: false };
      hosts.set(host, state);
    }
    return state;
  };

  const pump = (host: string, state: HostState): void => {
    while (state.waiters.length > 0 && state.inFlight < perHost) {
      const now = timers.now();
      if (now < state.nextStart) {
        if (!state.timerSet) {
          state.timerSet = true;
          timers.setTimeout(() => {
            state.timerSet = false;
            pump(host, state);
          }, Math.ceil(state.nextStart - now));
        }
        return;
      }
      state.inFlight += 1;
      state.nextStart = now + intervalMs;
      const grant = state.waiters.shift() as (release: () => void) => void;
      let released = false;
      grant(() => {
        if (released) return;
        released = true;
        state.inFlight -= 1;
        pump(host, state);
      });
    }
  };

  return {
    acquire(host) {
      const state = stateOf(host);
      return new Promise((resolve) => {
        state.waiters.push(resolve);
        pump(host, state);
      });
    },
    defer(host, untilMs) {
      const state = stateOf(host);
      state.nextStart = Math.max(state.nextStart, untilMs);
    },
    readyAt(host) {
      return hosts.get(host)?.nextStart ?? Number.NEGATIVE_INFINITY;
    },
    inFlight(host) {
      return hosts.get(host)?.inFlight ?? 0;
    },
  };
}
