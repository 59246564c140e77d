/**
 * Opens a snapshot only after checking it, at start-up and on every hot swap; a file that fails any
 * check is refused whole, so the gateway never serves a partial or altered snapshot. In order, cheapest
 * first:
 *
 * 1. `header` (O(1), first 100 bytes): SQLite magic, the snapshot application_id, and file size = page
 *    size x page count recorded in the header. Refuses text files, empty files, other SQLite databases,
 *    truncated files and appended bytes.
 * 2. `checksum`: `<file>.sha256` (written by `hra build` before the snapshot is renamed into place) must
 *    exist and hold the file's `sha256sum` line, and, when it binds one, the line of `<file>.segments`, whose
 *    bytes must then hash to it (read-published-digests.ts).
 * 3. `format` (O(1)): meta format name and `format_version` (openSnapshot).
 * 4. `content` (O(file size)): every byte of the file is hashed, on worker threads. With a bound tree, each
 *    piece's SHA-256 must equal the segments file's, the pieces hashed on every core at once; without one (an
 *    older build, or a segments file not copied), the SHA-256 of the whole file, in one stream, must equal the
 *    checksum file's. Either catches one flipped byte anywhere: in a served body, an index, a b-tree page.
 *    An unbound segments file (an older build's `.sha256` has one line) vouches for nothing, since it could
 *    be rewritten with the bytes: its slices are hashed only to name where a refused file differs.
 *
 * Why raw SHA-256 and not the in-file `content_digest`: both are O(size), but the raw hash streams the file
 * at disk/page-cache speed while the content digest walks every row through SQLite, and measured two to
 * three times faster (BENCHMARKS.md, "Measurements behind code comments").
 * A check that reads every byte cannot be O(1), so start-up time grows with the file (docs/operators.md
 * "Operations"); a lazy per-row check would start faster but could not refuse a flipped byte at start,
 * which the operator contract requires.
 *
 * A file already verified by this process and unchanged since (same device, inode, size, mtime and ctime;
 * any write through the filesystem changes ctime) is not hashed again, so swapping back to the previous
 * revision costs O(1).
 *
 * At start-up the hash may already be under way (start-snapshot-hash.ts, started before the gateway's
 * modules were loaded): its digests stand in for this check's own only when it hashed this very file at
 * this very identity over the very ranges this check would hash, and they are compared exactly as this
 * check's own would be; any other in-flight hash is released and the file hashed here.
 */
import { availableParallelism } from 'node:os';
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { inspectSnapshotHeader, SQLITE_HEADER_BYTES } from '../../build/snapshot/inspect-snapshot.ts';
import { checksumFileOf } from '../../build/snapshot/snapshot-checksum.ts';
import { segmentRanges, segmentsFileOf, type SegmentDigests } from '../../build/snapshot/snapshot-segments.ts';
import { fileIdentity, identityOfStats } from '../files/file-identity.ts';
import { openSnapshot, SnapshotRejectedError, type Snapshot } from './open-snapshot.ts';
import { INLINE_HASH_BYTES, sha256OfDescriptor, sha256OfRanges } from './sha256-of-descriptor.ts';
import { readPublishedDigests } from './read-published-digests.ts';
import { hashedRanges, type ByteRanges, type SnapshotHashInFlight } from './start-snapshot-hash.ts';

/** A snapshot that passed every check, with what the check cost. */
export interface LoadedSnapshot {
  snapshot: Snapshot;
  /** Identifies the file's bytes on disk (see fileIdentity); equal identities need no new check. */
  identity: string;
  /** File size in bytes. */
  bytes: number;
  /** Milliseconds from the start of the check to the opened snapshot. */
  checkMs: number;
  /** False when the bytes were verified earlier in this process and the file has not changed since. */
  hashed: boolean;
  /** True when the digests compared were those of the hash started before the gateway loaded (start-snapshot-hash.ts). */
  hashedEarly: boolean;
}

/** Options of loadSnapshot. */
export interface LoadSnapshotOptions {
  /** Identity -> SHA-256 of files this process has verified; read and extended. */
  verified?: Map<string, string>;
  /** Abandons the hash (shutdown); the load then rejects. */
  signal?: AbortSignal;
  /** Worker threads that hash a file's bound tree, or a refused file by segment to name where it differs; one per core unless told. */
  hashWorkers?: number;
  /** Files up to this size are hashed whole on the calling thread (tests set 0 to exercise the workers). */
  inlineHashBytes?: number;
  /**
   * A hash of the dataset started earlier (start-snapshot-hash.ts). The load takes it over: it is used when
   * it matches the file, identity and ranges checked here, and released in every case before the load settles.
   */
  inFlight?: SnapshotHashInFlight;
  /**
   * Called once, with the file opened and its cheap checks passed, while its content is being hashed: start-up
   * builds its request listener meanwhile (start-gateway.ts). Nothing may answer from `snapshot` before the
   * load resolves; when it rejects, `snapshot` has been closed and what was built on it must be dropped.
   */
  whileHashing?: (snapshot: Snapshot) => void;
}

// A process only ever alternates among a few revisions; the cap keeps a long-lived gateway's memo bounded.
const MAX_REMEMBERED = 16;

/** Resolves `path` (following `current.sqlite`), checks the file and opens it; throws SnapshotRejectedError naming the failed check. */
export async function loadSnapshot(path: string, options: LoadSnapshotOptions = {}): Promise<LoadedSnapshot> {
  const { inFlight } = options;
  try {
    return await checkAndOpen(path, options);
  } finally {
    inFlight?.release();
  }
}

async function checkAndOpen(path: string, options: LoadSnapshotOptions): Promise<LoadedSnapshot> {
  const started = performance.now();
  let file: string;
  let fd: number;
  try {
    file = realpathSync(path);
    fd = openSync(file, 'r');
  } catch (error) {
    throw new SnapshotRejectedError(`cannot open snapshot ${path}: ${(error as Error).message}`);
  }
  const refuse = (check: string, reason: string) => new SnapshotRejectedError(`snapshot ${file} refused: ${check}: ${reason}`);
  let snapshot: Snapshot | undefined;
  try {
    const stat = fstatSync(fd, { bigint: true });
    const header = Buffer.alloc(SQLITE_HEADER_BYTES);
    readSync(fd, header, 0, SQLITE_HEADER_BYTES, 0);
    const structure = inspectSnapshotHeader(header, Number(stat.size));
    if (!structure.ok) throw refuse(structure.check, structure.reason);
    const size = Number(stat.size);
    const published = readPublishedDigests(file, size);
    if (!published.ok) throw refuse(published.refusal.check, published.refusal.reason);
    const { recorded, tree, unboundSegments } = published.digests;
    snapshot = openSnapshot(file);
    const identity = identityOfStats(stat);
    const hashed = options.verified?.get(identity) !== recorded;
    let hashedEarly = false;
    if (!hashed) options.whileHashing?.(snapshot);
    else {
      const inline = size <= (options.inlineHashBytes ?? INLINE_HASH_BYTES);
      // A small file is hashed whole in place (cheaper than starting workers), its tree bound all the same.
      const pieces = inline ? undefined : tree;
      const ranges = hashedRanges(size, pieces);
      const early = earlyDigests(options, file, identity, ranges);
      hashedEarly = early !== undefined;
      const workers = pieces === undefined ? 1 : options.hashWorkers ?? availableParallelism();
      // Under way before the caller's work while hashing; awaited right after it, so a rejection is always handled.
      const digests = early ?? (inline ? sha256OfDescriptor(fd, size, options.signal).then((digest) => [digest]) : sha256OfRanges(fd, ranges, workers, options.signal));
      options.whileHashing?.(snapshot);
      const actual = await digests;
      if (pieces !== undefined) {
        const bad = actual.findIndex((hex, index) => hex !== pieces.segments[index]);
        if (bad >= 0 || actual.length !== pieces.segments.length) throw pieceRefusal(file, ranges, actual, pieces, Math.max(bad, 0), refuse);
      } else if (actual[0] !== recorded) {
        throw await contentRefusal(fd, file, { actual: actual[0] ?? '', recorded, segments: inline ? undefined : unboundSegments }, options, refuse);
      }
    }
    // The path could have been replaced by a rename mid-check: SQLite must hold the very bytes we hashed.
    if (fileIdentity(file) !== identity) throw refuse('content', 'the file was replaced while it was being checked');
    remember(options.verified, identity, recorded);
    return { snapshot, identity, bytes: Number(stat.size), checkMs: performance.now() - started, hashed, hashedEarly };
  } catch (error) {
    snapshot?.close();
    throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * The digests of the in-flight hash when it hashes exactly what this check would (the same file at the same
 * identity, the same ranges); otherwise undefined, and it is released at once so its workers stop.
 */
function earlyDigests(options: LoadSnapshotOptions, file: string, identity: string, ranges: ByteRanges): Promise<string[]> | undefined {
  const { inFlight, signal } = options;
  if (inFlight === undefined) return undefined;
  const same = inFlight.file === file && inFlight.identity === identity && inFlight.ranges.length === ranges.length
    && inFlight.ranges.every(([start, end], index) => start === ranges[index]?.[0] && end === ranges[index]?.[1]);
  if (!same) {
    inFlight.release();
    return undefined;
  }
  if (signal !== undefined) {
    // A shutdown abandons it as it would this check's own hash.
    const abandon = () => inFlight.release();
    if (signal.aborted) abandon();
    signal.addEventListener('abort', abandon, { once: true });
    void inFlight.digests.finally(() => signal.removeEventListener('abort', abandon)).catch(() => undefined);
  }
  return inFlight.digests;
}

/** The refusal of a file one of whose pieces does not hash to what its bound tree records, naming the first. */
function pieceRefusal(
  file: string,
  ranges: ByteRanges,
  actual: readonly string[],
  tree: SegmentDigests,
  bad: number,
  refuse: (check: string, reason: string) => SnapshotRejectedError,
): SnapshotRejectedError {
  const [start, end] = ranges[bad] ?? [0, 0];
  return refuse('content', `segment ${bad} (bytes ${start}-${end}) sha256 ${actual[bad] ?? '(none)'} does not match ${tree.segments[bad]} recorded in ${segmentsFileOf(file)} (bound to ${checksumFileOf(file)} by its sha256)`);
}

/**
 * The refusal of a file whose SHA-256 is not the recorded one. With segments, the file is hashed again by
 * slice, on every core, only to say where it differs; a file whose slices all match a segments file that
 * names the recorded digest had its segments rewritten with it, and is refused all the same.
 */
async function contentRefusal(
  fd: number,
  file: string,
  { actual, recorded, segments }: { actual: string; recorded: string; segments: SegmentDigests | undefined },
  options: LoadSnapshotOptions,
  refuse: (check: string, reason: string) => SnapshotRejectedError,
): Promise<SnapshotRejectedError> {
  const whole = `file sha256 ${actual} does not match ${recorded} recorded in ${checksumFileOf(file)}`;
  if (segments === undefined) return refuse('content', whole);
  const ranges = segmentRanges(segments.fileBytes, segments.segmentBytes);
  const slices = await sha256OfRanges(fd, ranges, options.hashWorkers ?? availableParallelism(), options.signal);
  const bad = slices.findIndex((hex, index) => hex !== segments.segments[index]);
  if (bad < 0) return refuse('content', `${whole}; every slice matches ${segmentsFileOf(file)}, which therefore does not belong to it`);
  const [start, end] = ranges[bad] ?? [0, 0];
  return refuse('content', `segment ${bad} (bytes ${start}-${end}) sha256 ${slices[bad]} does not match ${segments.segments[bad]} recorded in ${segmentsFileOf(file)} (${whole})`);
}

function remember(verified: Map<string, string> | undefined, identity: string, digest: string): void {
  if (verified === undefined) return;
  verified.delete(identity);
  verified.set(identity, digest);
  for (const oldest of verified.keys()) {
    if (verified.size <= MAX_REMEMBERED) break;
    verified.delete(oldest);
  }
}
