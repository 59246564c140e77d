/**
 * Notices, within a fraction of a second, that the file being served no longer is the file that was
 * verified, and stops serving it; then serves again, with no restart, as soon as a file that verifies is
 * at the dataset path (renamed into place, or restored in place).
 *
 * How it notices, cheaply: it holds its own descriptor on the served file and compares the descriptor's
 * `fstat` identity (device, inode, size, mtime, ctime: file-identity.ts) with the identity that was
 * verified. Any write through the filesystem moves ctime, so an edit in place, a `cp` over the file (or over
 * `current.sqlite`, which writes through the link into it) and a `truncate` all change it, whatever bytes
 * they wrote; a deleted file keeps its identity but loses its last link (`nlink` 0) while the dataset path
 * names nothing. The check costs one `fstat` and, after a deletion, one `stat`: it runs on an `fs.watch`
 * event of the file (inotify on Linux: within milliseconds of the write) and every `intervalMs` regardless,
 * because a watch is a hint that some filesystems never send. Re-hashing on a timer instead would cost
 * O(file size) per tick; the identity is the same rule that lets a verified file skip its hash on a swap
 * back (load-snapshot.ts), so a change that could alter a byte is never missed by one and seen by the other.
 *
 * What it does on a change: fails the snapshot at once (open-snapshot.ts: every read and every answer
 * from it is a 503, and the holder empties every cache built from it), before hashing anything, because
 * the write may still be under way; then asks the reloader to check the dataset path, which swaps in a file
 * that verifies (a `touch` costs one hash and about that long of 503s). While the snapshot stays failed it
 * asks again whenever the dataset path names a file of another identity, so a restore by rename, a
 * repointed link or a copy written back in place each recover the gateway.
 *
 * A file renamed over the served one is a hot swap, not a fault, although the rename moves the old inode's
 * ctime (it loses its link; a `mv` of the old file away moves it too). So a changed identity whose size and
 * mtime are the verified ones, while the dataset path names another inode, is taken as that swap: the old,
 * intact inode keeps serving, the reloader is asked to check the new file, and a new file that does not
 * verify leaves the old revision serving. The new ctime becomes the one watched, so a later write to the
 * old inode still fails it; a write that also put the old mtime back is caught by the read checks
 * (read-verifier.ts), which refuse any byte the verified file did not hold.
 */
import { closeSync, fstatSync, openSync, watch, type FSWatcher } from 'node:fs';
import { differsOnlyInCtime, fileIdentity, identityOfStats, sameInode } from '../files/file-identity.ts';
import type { GatewayLogger } from '../observability/gateway-logger.ts';
import type { SnapshotReloader } from './reload-snapshot.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';

/** How often the served file's identity is checked when no watch event comes; well inside the 1 s bound. */
export const SERVED_FILE_CHECK_MS = 100;

/** What the watch follows and whom it tells. */
export interface ServedFileWatchOptions {
  /** The dataset path as configured (`current.sqlite` or a file). */
  readonly dataset: string;
  readonly snapshots: SnapshotHolder;
  readonly reloader: SnapshotReloader;
  readonly log: GatewayLogger;
  /** Milliseconds between checks without a watch event; SERVED_FILE_CHECK_MS unless told. */
  readonly intervalMs?: number;
}

/** A running watch of the served file. */
export interface ServedFileWatch {
  /** Checks now (the timer and the watch events call this too). */
  check(): void;
  /** Stops watching and closes the descriptor; for shutdown. */
  close(): void;
}

/** The served file as the watch holds it: the verified identity and a descriptor on those very bytes. */
interface Watched {
  readonly file: string;
  /** The identity that was verified (the reloader's served identity). */
  readonly identity: string;
  readonly fd: number | undefined;
  readonly watcher: FSWatcher | undefined;
  /** The descriptor's identity as last accepted: the verified one, or the same bytes after a rename. */
  accepted: string;
}

/** Starts watching the file the holder serves; see the module comment for what it does on a change. */
export function watchServedFile(options: ServedFileWatchOptions): ServedFileWatch {
  const { dataset, snapshots, reloader, log } = options;
  let watched: Watched | undefined;
  let closed = false;
  let scheduled = false;
  let recovering = false;
  // The dataset path's identity at the last recovery attempt: the same file is not hashed again and again.
  let lastTried: string | undefined;

  const unwatch = () => {
    if (watched === undefined) return;
    watched.watcher?.close();
    if (watched.fd !== undefined) closeSync(watched.fd);
    watched = undefined;
  };

  // Holds a descriptor on the file the served snapshot was opened from (again after every swap).
  const follow = () => {
    const identity = reloader.servedIdentity();
    if (watched?.identity === identity) return;
    unwatch();
    const file = snapshots.current.file;
    let fd: number | undefined;
    let watcher: FSWatcher | undefined;
    try {
      fd = openSync(file, 'r');
    } catch {
      fd = undefined;
    }
    try {
      watcher = watch(file, { persistent: false }, schedule);
      watcher.on('error', () => undefined);
    } catch {
      watcher = undefined;
    }
    watched = { file, identity, fd, watcher, accepted: identity };
  };

  // Why the watched file is no longer the verified one, or undefined while it is.
  const changeOf = (current: Watched): string | undefined => {
    if (current.fd === undefined) return `the served file ${current.file} cannot be opened`;
    const stat = fstatSync(current.fd, { bigint: true });
    const now = identityOfStats(stat);
    if (now !== current.accepted) {
      if (!replacedByRename(current, now)) return `the served file ${current.file} was written to in place (its size, mtime or ctime changed): it no longer is the file that was verified`;
      current.accepted = now;
      void reloader.reload('dataset replaced');
    }
    if (stat.nlink === 0n && fileIdentity(dataset) === undefined) return `the served file ${current.file} was deleted and ${dataset} names no file`;
    return undefined;
  };

  // A rename over the served path unlinks the old inode, which moves its ctime and nothing else.
  const replacedByRename = (current: Watched, now: string): boolean => {
    if (!differsOnlyInCtime(now, current.accepted)) return false;
    const named = fileIdentity(dataset);
    return named !== undefined && !sameInode(named, current.identity);
  };

  const recover = () => {
    if (recovering || closed) return;
    const identity = fileIdentity(dataset);
    if (identity === undefined || identity === lastTried) return;
    lastTried = identity;
    recovering = true;
    void reloader.reload('dataset check').finally(() => {
      recovering = false;
      schedule();
    });
  };

  const check = () => {
    scheduled = false;
    if (closed) return;
    const current = snapshots.current;
    if (current.failure === undefined) {
      follow();
      const change = watched === undefined ? undefined : changeOf(watched);
      // Failing it tells the holder's listeners (below), which empty the caches and log the line.
      if (change !== undefined) current.fail(change);
    }
    if (snapshots.current.failure !== undefined) recover();
  };

  function schedule(): void {
    if (scheduled || closed) return;
    scheduled = true;
    setImmediate(check);
  }

  snapshots.onFault((snapshot, reason) => {
    if (snapshot !== snapshots.current) return;
    log.error({ file: snapshot.file, revision: snapshot.revision, reason }, `snapshot failed: ${reason}; answering 503 DATASET_UNAVAILABLE until a file that verifies is in place`);
    lastTried = undefined;
    schedule();
  });

  const timer = setInterval(check, options.intervalMs ?? SERVED_FILE_CHECK_MS);
  timer.unref();
  check();
  return {
    check,
    close: () => {
      closed = true;
      clearInterval(timer);
      unwatch();
    },
  };
}
