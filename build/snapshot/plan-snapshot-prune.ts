/**
 * Which published snapshots in an output folder `hra prune` removes: all but the newest `keep`, never the one
 * `current.sqlite` points to, never one a process holds open (a gateway serving it), each with its sidecars.
 */

/** A published snapshot found in the folder. */
export interface PublishedFile {
  /** `gm1-<64 hex>.sqlite`. */
  readonly name: string;
  /** Its sidecars present beside it (`.sha256`, `.segments`), by file name. */
  readonly sidecars: readonly string[];
  /** Modification time in ms: the order in which builds published them. */
  readonly mtimeMs: number;
  readonly bytes: number;
}

/** Why a snapshot stays. */
export type KeptBecause = 'newest' | 'current' | 'open';

/** What a prune does. */
export interface SnapshotPrunePlan {
  readonly kept: ReadonlyArray<{ file: PublishedFile; because: KeptBecause }>;
  readonly removed: readonly PublishedFile[];
}

/** A revision's snapshot file name. */
export const SNAPSHOT_FILE = /^gm1-[0-9a-f]{64}\.sqlite$/;

/**
 * Plans the prune: snapshots sorted newest first (by modification time, then name, so the plan is the same
 * on every run), the first `keep` kept, and any other kept while `current` names it or `isOpen` says a
 * process has it open.
 */
export function planSnapshotPrune(
  files: readonly PublishedFile[], keep: number, current: string | undefined, isOpen: (name: string) => boolean,
): SnapshotPrunePlan {
  const newestFirst = [...files].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const kept: Array<{ file: PublishedFile; because: KeptBecause }> = [];
  const removed: PublishedFile[] = [];
  newestFirst.forEach((file, index) => {
    if (file.name === current) kept.push({ file, because: 'current' });
    else if (index < keep) kept.push({ file, because: 'newest' });
    else if (isOpen(file.name)) kept.push({ file, because: 'open' });
    else removed.push(file);
  });
  return { kept, removed };
}
