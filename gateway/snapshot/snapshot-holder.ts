/**
 * Holds the served snapshot and swaps it atomically. Each request acquires the current snapshot and
 * releases it when done; a replaced snapshot is closed only once its last request has released it.
 * When the served snapshot fails (its file changed, vanished or could not be read: open-snapshot.ts), the
 * holder tells every listener at once, so the caches built from that file empty before anything else runs.
 */
import type { Snapshot } from './open-snapshot.ts';

/** A pinned snapshot and the function that unpins it. */
export interface SnapshotLease {
  snapshot: Snapshot;
  release: () => void;
}

/** Told when the served snapshot fails: `reason` is the operator's line (it names the file). */
export type SnapshotFaultListener = (snapshot: Snapshot, reason: string) => void;

/** The swap point between the running gateway and its snapshot file. */
export class SnapshotHolder {
  #current: Snapshot;
  readonly #leases = new Map<Snapshot, number>();
  readonly #retired = new Set<Snapshot>();
  readonly #faultListeners: SnapshotFaultListener[] = [];

  constructor(initial: Snapshot) {
    this.#current = initial;
    this.#follow(initial);
  }

  /** The snapshot new requests will see; it may have failed (`current.failure`) until a verified file replaces it. */
  get current(): Snapshot {
    return this.#current;
  }

  /**
   * Calls `listener` each time a snapshot this holder served fails (`snapshot === current` for the one
   * being served). Caches built from the snapshot's file register
   * here to be emptied (a failed file's bytes are never served again, not even from memory); the watcher
   * registers to look for a file that verifies.
   */
  onFault(listener: SnapshotFaultListener): void {
    this.#faultListeners.push(listener);
  }

  /** Pins the current snapshot for one request. */
  acquire(): SnapshotLease {
    const snapshot = this.#current;
    this.#leases.set(snapshot, (this.#leases.get(snapshot) ?? 0) + 1);
    let released = false;
    return {
      snapshot,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#leases.get(snapshot) ?? 1) - 1;
        if (left > 0) this.#leases.set(snapshot, left);
        else {
          this.#leases.delete(snapshot);
          if (this.#retired.delete(snapshot)) snapshot.close();
        }
      },
    };
  }

  /** Makes `next` current; the previous snapshot closes when its in-flight requests finish. */
  swap(next: Snapshot): Snapshot {
    const previous = this.#current;
    this.#current = next;
    if (previous !== next) {
      this.#follow(next);
      if ((this.#leases.get(previous) ?? 0) === 0) previous.close();
      else this.#retired.add(previous);
    }
    return previous;
  }

  /** Closes every snapshot; for shutdown, after the server has drained. */
  close(): void {
    for (const snapshot of this.#retired) snapshot.close();
    this.#retired.clear();
    this.#current.close();
  }

  #follow(snapshot: Snapshot): void {
    // A retired snapshot failing (a storage error in one of its last requests) is told too: the caches
    // keyed by its revision may hold its bytes, and a later swap back to that revision must not find them.
    snapshot.onFail((reason) => {
      for (const listener of this.#faultListeners) listener(snapshot, reason);
    });
  }
}
