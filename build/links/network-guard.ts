/**
 * Keeps a run without a network from becoming evidence (issue 22, item 8). An attempt that never
 * reached its host (DNS failure, connection not opened, or through a proxy a 502/503/504, a refused
 * tunnel or a 407) says nothing about the site when every host fails the same way: the machine or the proxy has
 * no way out. The guard holds attempts back until it can tell, and stops the run when it cannot.
 *
 * - First window: nothing is recorded until the run's first FIRST_WINDOW attempts (or all of them, in a
 *   smaller run) have finished. If at least UNREACHABLE_SHARE of them were unreachable, across at least
 *   MIN_HOSTS distinct hosts (or every host of a run with fewer), the run stops and records nothing.
 *   While this is in doubt the caller may end an unreachable attempt at its first try instead of waiting
 *   out its retries (`inDoubt`), and check it anew, with every retry, once the run goes on. With `confirm`
 *   the stop is then confirmed: one failed attempt on each of MIN_HOSTS failing hosts is tried again, not
 *   before CONFIRM_AFTER_MS after the first failure; the run stops only if each fails again, and goes on as
 *   soon as any of them reaches its host. The decision takes seconds, and a network out for a moment at the
 *   start still does not stop the run. Failures that retrying cannot change (`lasting`: the proxy's own
 *   407 or refused tunnel) need no confirmation: a window of only those stops at once.
 * - Later: an unreachable attempt starts a streak; the attempts of a streak are held back until any
 *   attempt reaches its host (then they are recorded, in completion order). A streak that has lasted
 *   LOST_AFTER_MS and covers MIN_HOSTS distinct hosts stops the run; what was recorded before it stays.
 *
 * A run killed while attempts are held loses only those attempts: they were not appended, so the next
 * run finds them due and checks them again.
 */
import type { LinkVerdict } from './link-check-types.ts';

/** Attempts in the first window. */
export const FIRST_WINDOW = 50;
/** Share of unreachable attempts in the first window that stops the run. */
export const UNREACHABLE_SHARE = 0.9;
/** Distinct unreachable hosts needed to stop (fewer when the run has fewer hosts). */
export const MIN_HOSTS = 8;
/** How long every attempt must have failed to reach its host, later in a run, before it stops. */
export const LOST_AFTER_MS = 60_000;
/** How long after the first unreachable attempt the hosts of a first-window stop are tried again (`confirm`). */
export const CONFIRM_AFTER_MS = 3_000;

/** Why the guard stopped the run; `phase` says whether anything could have been recorded before. */
export class NetworkUnavailable extends Error {
  readonly phase: 'first-window' | 'mid-run';

  constructor(phase: 'first-window' | 'mid-run', message: string) {
    super(message);
    this.name = 'NetworkUnavailable';
    this.phase = phase;
  }
}

/** Options of createNetworkGuard. */
export interface NetworkGuardOptions<T = unknown> {
  /** Attempts the run will make, and distinct hosts among them. */
  attempts: number;
  hosts: number;
  /** Through a proxy a 502, 503 or 504 may be the proxy saying it could not reach the site. */
  viaProxy: boolean;
  /** Monotonic ms (the run's clock; tests drive it). */
  now(): number;
  /**
   * Asks for one more attempt on the URL of each of `items` (held attempts that failed, one per host,
   * now dropped), none of their hosts tried before `notBefore`. Given, a first-window stop waits for those
   * attempts (see the file head); without it, the window stops at once.
   */
  confirm?(items: T[], notBefore: number): void;
}

/** One finished attempt as the guard sees it; `item` is what the caller records. */
export interface GuardedAttempt<T> {
  host: string;
  verdict: LinkVerdict;
  item: T;
}

/** The guard of one run. */
export interface NetworkGuard<T> {
  /** Takes a finished attempt; returns the items to record now. Throws NetworkUnavailable once, when it stops; returns nothing after. */
  accept(attempt: GuardedAttempt<T>): T[];
  /** At the end of a run that was not stopped: the items still held, to record. */
  finish(): T[];
  /** True while what finishes may never be recorded: until the first window is decided, and once stopped. */
  inDoubt(): boolean;
}

// What a proxy answers when it cannot reach the site (Squid answers 503 to a name it cannot resolve).
const PROXY_NO_WAY_OUT = new Set([502, 503, 504]);

/** True when the attempt never reached its host. */
export function isUnreachable(verdict: LinkVerdict, viaProxy: boolean): boolean {
  if (verdict.unreachable === true) return true;
  return viaProxy && verdict.outcome === 'inconclusive' && verdict.httpStatus !== null && PROXY_NO_WAY_OUT.has(verdict.httpStatus);
}

/** Creates the guard of a run of `options.attempts` attempts. */
export function createNetworkGuard<T>(options: NetworkGuardOptions<T>): NetworkGuard<T> {
  const window = Math.min(FIRST_WINDOW, options.attempts);
  const hostsNeeded = Math.min(MIN_HOSTS, options.hosts);
  let phase: 'first-window' | 'confirming' | 'running' | 'stopped' = window === 0 ? 'running' : 'first-window';
  let held: T[] = [];
  // First window: counts; later: the current streak of unreachable attempts.
  let finished = 0;
  let unreachable = 0;
  let streakStart: number | undefined;
  let hosts = new Set<string>();
  let lastCause = '';
  // First window: when the first attempt failed, and one failed attempt per host (the ones `confirm` retries).
  // A window whose failures all last (the proxy's own refusal) needs no confirmation: a retry would fail alike.
  let firstFailure: number | undefined;
  let allLasting = true;
  const failedOn = new Map<string, T>();
  // Confirming: the stop that stands once every host in `awaiting` has failed again at or after `notBefore`.
  let pending: NetworkUnavailable | undefined;
  let awaiting = new Set<string>();
  let notBefore = 0;

  const stop = (error: NetworkUnavailable): never => {
    phase = 'stopped';
    held = [];
    throw error;
  };
  const release = (): T[] => {
    const out = held;
    held = [];
    hosts = new Set();
    streakStart = undefined;
    return out;
  };
  const goOn = (): T[] => {
    phase = 'running';
    failedOn.clear();
    return release();
  };
  const confirmStop = (error: NetworkUnavailable): T[] => {
    const { confirm } = options;
    if (confirm === undefined || allLasting) return stop(error);
    phase = 'confirming';
    pending = error;
    const retried = [...failedOn].slice(0, hostsNeeded);
    awaiting = new Set(retried.map(([host]) => host));
    const dropped = new Set(retried.map(([, item]) => item));
    held = held.filter((item) => !dropped.has(item));
    notBefore = (firstFailure ?? options.now()) + CONFIRM_AFTER_MS;
    confirm(retried.map(([, item]) => item), notBefore);
    return [];
  };

  return {
    accept({ host, verdict, item }) {
      if (phase === 'stopped') return [];
      const failed = isUnreachable(verdict, options.viaProxy);
      if (failed) lastCause = verdict.reason;
      if (phase === 'confirming') {
        held.push(item);
        // Only the hosts being confirmed decide: an attempt elsewhere says nothing about them.
        if (!awaiting.has(host)) return [];
        if (!failed) return goOn();
        if (options.now() >= notBefore) awaiting.delete(host);
        return awaiting.size === 0 ? stop(pending as NetworkUnavailable) : [];
      }
      if (phase === 'first-window') {
        held.push(item);
        finished += 1;
        if (failed) {
          unreachable += 1;
          hosts.add(host);
          firstFailure ??= options.now();
          if (verdict.lasting !== true) allLasting = false;
          if (!failedOn.has(host)) failedOn.set(host, item);
        }
        const stopAt = Math.ceil(UNREACHABLE_SHARE * window);
        if (unreachable >= stopAt && hosts.size >= hostsNeeded) {
          return confirmStop(new NetworkUnavailable('first-window', `${unreachable} of the first ${finished} attempts (${hostCount(hosts.size)}) never reached their host (last: ${lastCause})`));
        }
        // Decided once a stop is out of reach: too many reached their host, or the window is complete.
        if (finished - unreachable > window - stopAt || finished >= window) return goOn();
        return [];
      }
      if (!failed) {
        held.push(item);
        return release();
      }
      const now = options.now();
      streakStart ??= now;
      held.push(item);
      hosts.add(host);
      if (now - streakStart >= LOST_AFTER_MS && hosts.size >= hostsNeeded) {
        stop(new NetworkUnavailable('mid-run', `every attempt for ${Math.round((now - streakStart) / 1000)} s (${hostCount(hosts.size)}) failed to reach its host (last: ${lastCause})`));
      }
      return [];
    },
    finish() {
      if (phase === 'stopped') return [];
      return goOn();
    },
    inDoubt() {
      return phase !== 'running';
    },
  };
}

function hostCount(n: number): string {
  return n === 1 ? '1 host' : `${n} hosts`;
}
