/**
 * Holds the served snapshot and swaps it atomically. Each request acquires the current snapshot and
 * releases it when done; a replaced snapshot is closed only once its last request has released it.
 */
import type { Snapshot } from './open-snapshot.ts';

/** A pinned snapshot and the function that unpins it. */
export interface SnapshotLease {
  snapshot: Snapshot;
  release: () => void;
}

/** The swap point between the running gateway and its snapshot file. */
export class SnapshotHolder {
  #current: Snapshot;
  readonly #leases = new Map<Snapshot, number>();
  readonly #retired = new Set<Snapshot>();

  constructor(initial: Snapshot) {
    this.#current = initial;
  }

  /** The snapshot new requests will see. */
  get current(): Snapshot {
    return this.#current;
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
}
