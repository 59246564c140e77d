/**
 * Follows the dataset path: checks the file it resolves to now and swaps the served snapshot to it
 * atomically (requests in flight finish on the old one). Reloads run one at a time; a shutdown abandons
 * a check in progress, so a file that is still being hashed is never served.
 *
 * What decides a swap is the file, not its revision: a verified file whose identity (file-identity.ts)
 * differs from the served one replaces it even when it holds the same revision, and a served snapshot that
 * failed (open-snapshot.ts) is replaced by any file that verifies, so putting a good copy back recovers
 * without a restart. Only a sound served file at the very same identity is "unchanged".
 *
 * A load that failed for want of descriptors or another passing resource (transient-failure.ts) is tried
 * again by itself, after 100 ms, then twice as long each time up to 5 s, until it succeeds or fails for
 * another reason: the dataset path's poll and the watch ask only when the path changes, so without it a
 * swap refused by EMFILE left the old revision serving until SIGHUP.
 */
import { fileIdentity } from '../files/file-identity.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import { loadSnapshot, type LoadedSnapshot } from './load-snapshot.ts';
import type { Snapshot } from './open-snapshot.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';
import { transientCodeOf } from './transient-failure.ts';

/** The first retry of a transiently refused load comes this long after it; each next one twice as long. */
export const FIRST_RETRY_MS = 100;
/** Retries of a transiently refused load never wait longer than this. */
export const MAX_RETRY_MS = 5_000;

/** What a reload did. */
export type ReloadOutcome =
  | { status: 'swapped'; revision: string; previous: string; checkMs: number }
  | { status: 'unchanged'; revision: string }
  | { status: 'refused'; revision: string; reason: string; retryInMs?: number };

/** Where to reload from and into; `verified` is shared with the first load so a known file is not hashed again. */
export interface SnapshotReloaderOptions {
  readonly dataset: string;
  readonly snapshots: SnapshotHolder;
  /** Identity of the file the first load served (see file-identity.ts). */
  readonly servedIdentity: string;
  readonly verified: Map<string, string>;
  /** Aborted when the gateway shuts down. */
  readonly signal: AbortSignal;
  readonly log: GatewayLogger;
  /** Runs on a verified snapshot just before it is swapped in (the compressed forms are made then). */
  readonly beforeSwap?: (next: Snapshot) => Promise<void>;
}

/** Serialized reloads of one gateway's snapshot. */
export interface SnapshotReloader {
  /** Checks the dataset path and swaps to it when it holds another file that verifies; `trigger` names the cause in the log. */
  reload(trigger: string): Promise<ReloadOutcome>;
  /** Identity of the file the served snapshot was opened from. */
  servedIdentity(): string;
  /** Resolves once every reload asked for so far has finished. */
  settled(): Promise<unknown>;
}

/** Creates the reloader of a gateway whose first snapshot came from `options.dataset`. */
export function createSnapshotReloader(options: SnapshotReloaderOptions): SnapshotReloader {
  const { dataset, snapshots, verified, signal, log } = options;
  let servedIdentity = options.servedIdentity;
  let reloads: Promise<unknown> = Promise.resolve();
  let retries = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  const cancelRetry = () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  };
  signal.addEventListener('abort', cancelRetry, { once: true });
  const scheduleRetry = (trigger: string): number => {
    cancelRetry();
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** retries);
    retries += 1;
    const cause = trigger.replace(/ \(retry \d+\)$/, '');
    retryTimer = setTimeout(() => void reload(`${cause} (retry ${retries})`), delay);
    retryTimer.unref();
    return delay;
  };
  const reloadOnce = async (trigger: string): Promise<ReloadOutcome> => {
    const serving = snapshots.current.revision;
    if (signal.aborted) return { status: 'refused', revision: serving, reason: 'the gateway is shutting down' };
    const failed = snapshots.current.failure !== undefined;
    // The same sound file (device, inode, size, times) as the one served: nothing to check or swap.
    if (!failed && fileIdentity(dataset) === servedIdentity) {
      // Whatever a pending retry was for is no longer at the dataset path.
      cancelRetry();
      retries = 0;
      return { status: 'unchanged', revision: serving };
    }
    // A failed file is hashed again even at an identity verified earlier (a storage error moves no times).
    if (failed) verified.delete(servedIdentity);
    let loaded: LoadedSnapshot;
    try {
      // One worker: a swap's check shares the machine with the requests being served, which start-up's does not.
      loaded = await loadSnapshot(dataset, { verified, signal, hashWorkers: 1 });
    } catch (error) {
      const reason = (error as Error).message;
      if (signal.aborted) return { status: 'refused', revision: serving, reason };
      const transient = transientCodeOf(error);
      const retryInMs = transient === undefined ? undefined : scheduleRetry(trigger);
      if (retryInMs === undefined) {
        cancelRetry();
        retries = 0;
      }
      const retrying = retryInMs === undefined ? '' : ` (${transient}: trying again in ${retryInMs} ms)`;
      log.error({ trigger, serving, reason, unavailable: failed, ...(retryInMs === undefined ? {} : { retryInMs }) }, failed
        ? `${trigger}: snapshot refused, the dataset stays unavailable (503) until a file that verifies is in place${retrying}`
        : `${trigger}: new snapshot refused, still serving ${serving}${retrying}`);
      return { status: 'refused', revision: serving, reason, ...(retryInMs === undefined ? {} : { retryInMs }) };
    }
    cancelRetry();
    retries = 0;
    if (signal.aborted) {
      loaded.snapshot.close();
      return { status: 'refused', revision: serving, reason: 'the gateway is shutting down' };
    }
    if (!failed && loaded.identity === servedIdentity) {
      loaded.snapshot.close();
      return { status: 'unchanged', revision: serving };
    }
    await options.beforeSwap?.(loaded.snapshot);
    if (signal.aborted) {
      loaded.snapshot.close();
      return { status: 'refused', revision: serving, reason: 'the gateway is shutting down' };
    }
    servedIdentity = loaded.identity;
    const revision = loaded.snapshot.revision;
    snapshots.swap(loaded.snapshot);
    const checkMs = Math.round(loaded.checkMs);
    log.info({ trigger, revision, previous: serving, file: loaded.snapshot.file, checkMs, hashed: loaded.hashed, recovered: failed }, `${trigger}: serving revision ${revision}`);
    return { status: 'swapped', revision, previous: serving, checkMs };
  };
  function reload(trigger: string): Promise<ReloadOutcome> {
    const outcome = reloads.then(() => reloadOnce(trigger));
    reloads = outcome.catch(() => undefined);
    return outcome;
  }
  return {
    reload,
    settled: () => reloads,
    servedIdentity: () => servedIdentity,
  };
}
