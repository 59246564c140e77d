/**
 * Starts the start-up check's hash of a snapshot before the rest of the gateway is loaded: `hra serve`
 * calls this first thing, so the file is hashed on workers while the main thread imports and builds the
 * gateway (docs/operators.md "Operations"). It decides and compares nothing: it only hashes the byte
 * ranges the check will ask for (the pieces of a bound tree on every core, else the whole file in one
 * stream: read-published-digests.ts decides for both), on the descriptor it opened, and records the
 * identity of the bytes it reads. loadSnapshot then uses the digests only for that very file at that very
 * identity and those very ranges, and compares them with the published digests as it would its own
 * (load-snapshot.ts); anything else, and any failure here, leaves the check to loadSnapshot, which reports
 * it as it always has.
 *
 * Its only imports are node's and modules that import only node's, so importing it costs next to nothing.
 */
import { closeSync, fstatSync, openSync, realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { segmentRanges, type SegmentDigests } from '../../build/snapshot/snapshot-segments.ts';
import { identityOfStats } from '../files/file-identity.ts';
import { readPublishedDigests } from './read-published-digests.ts';
import { INLINE_HASH_BYTES, sha256OfRanges } from './sha256-of-descriptor.ts';

/** Byte ranges [start, end) of a file, in order. */
export type ByteRanges = readonly (readonly [number, number])[];

/** A hash of a snapshot file in flight, started before the gateway that will check it exists. */
export interface SnapshotHashInFlight {
  /** The real path the dataset path named when the hash started. */
  readonly file: string;
  /** Identity (file-identity.ts) of the descriptor being hashed, taken when it was opened. */
  readonly identity: string;
  /** What is hashed: the pieces of the file's bound tree, or the whole file as one range. */
  readonly ranges: ByteRanges;
  /** When the hash started, in milliseconds since the process began (performance.now()). */
  readonly startedMs: number;
  /** When the digests were ready, in the same clock; undefined while in flight, and for ever once it failed or was released. */
  readonly hashedMs: number | undefined;
  /**
   * The SHA-256 of each range, in order. Settles only once every worker has exited and the descriptor is
   * closed; rejects with HashAbortedError after `release()`, or with the read error that stopped a worker.
   */
  readonly digests: Promise<string[]>;
  /** Abandons the hash (its workers are terminated); harmless once it has settled. Whoever holds it last calls this. */
  release(): void;
}

/** Options of startSnapshotHash. */
export interface StartSnapshotHashOptions {
  /** Worker threads; one per core unless told. */
  workers?: number;
  /** Files up to this size are hashed in place by the check itself, which costs less than starting workers. */
  inlineHashBytes?: number;
}

/**
 * The ranges the start-up check hashes in a file of `size` bytes: each piece of its bound tree, or without
 * one the whole file, the one digest `.sha256` records.
 */
export function hashedRanges(size: number, tree: SegmentDigests | undefined): [number, number][] {
  return tree === undefined ? [[0, size]] : segmentRanges(tree.fileBytes, tree.segmentBytes);
}

/**
 * Starts hashing the file `path` names now, or returns undefined when there is nothing worth starting early
 * (no such file, or a file small enough to hash in place).
 */
export function startSnapshotHash(path: string, options: StartSnapshotHashOptions = {}): SnapshotHashInFlight | undefined {
  const startedMs = performance.now();
  let file: string;
  let fd: number;
  try {
    file = realpathSync(path);
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  let ranges: [number, number][];
  let identity: string;
  try {
    const stat = fstatSync(fd, { bigint: true });
    const size = Number(stat.size);
    if (size <= (options.inlineHashBytes ?? INLINE_HASH_BYTES)) {
      closeSync(fd);
      return undefined;
    }
    identity = identityOfStats(stat);
    // Sidecars that refuse the file are the check's to report; it refuses before comparing, and releases this hash.
    const published = readPublishedDigests(file, size);
    ranges = hashedRanges(size, published.ok ? published.digests.tree : undefined);
  } catch {
    closeSync(fd);
    return undefined;
  }
  const abort = new AbortController();
  let hashedMs: number | undefined;
  const digests = sha256OfRanges(fd, ranges, options.workers ?? availableParallelism(), abort.signal).then(
    (hexes) => {
      hashedMs = performance.now();
      return hexes;
    },
  ).finally(() => closeSync(fd));
  // Held, not yet awaited: a rejection here is the check's to report (or nobody's, once released).
  digests.catch(() => undefined);
  return {
    file,
    identity,
    ranges,
    startedMs,
    get hashedMs() {
      return hashedMs;
    },
    digests,
    release: () => abort.abort(),
  };
}
