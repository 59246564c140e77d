/**
 * The start-up hash started before the gateway loads (start-snapshot-hash.ts) and its hand-off to the
 * start-up check (load-snapshot.ts): its digests stand in for the check's own only for the very file,
 * identity and ranges the check would hash, they are compared exactly as the check's own, and in every
 * other case the hash is abandoned and the check hashes the file itself.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, readFileSync, rmSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checksumFileOf, formatChecksumLine, parseChecksumLine } from '../../../build/snapshot/snapshot-checksum.ts';
import { parseSegmentDigests, segmentRanges, segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
import { fileIdentity } from '../../../gateway/files/file-identity.ts';
import { loadSnapshot } from '../../../gateway/snapshot/load-snapshot.ts';
import { SnapshotRejectedError } from '../../../gateway/snapshot/open-snapshot.ts';
import { HashAbortedError } from '../../../gateway/snapshot/sha256-of-descriptor.ts';
import { startSnapshotHash } from '../../../gateway/snapshot/start-snapshot-hash.ts';
import { copySnapshotWithDigests, publishSegmentedSnapshot, type SegmentedSnapshot } from '../../support/segmented-snapshot.ts';

const SEGMENT = 16 * 1024;
// The mini snapshot is far below the 8 MiB hashed in place: these make both sides use workers and segments.
const EARLY = { inlineHashBytes: 0, workers: 3 } as const;
const CHECK = { inlineHashBytes: 0, hashWorkers: 3 } as const;

describe('startSnapshotHash and its hand-off to loadSnapshot', () => {
  let snapshot: SegmentedSnapshot;
  let dir: string;
  before(() => {
    snapshot = publishSegmentedSnapshot(SEGMENT);
    dir = snapshot.dir;
  });
  after(() => snapshot.remove());

  const copy = () => snapshot.copy();

  it('hashes each piece of the bound tree on workers (the digests the .segments records), recording the identity of the bytes it read', async () => {
    const file = copy();
    const inFlight = startSnapshotHash(file, EARLY);
    assert.ok(inFlight !== undefined);
    assert.equal(inFlight.file, file);
    assert.equal(inFlight.identity, fileIdentity(file));
    const size = readFileSync(file).length;
    assert.deepEqual(inFlight.ranges, segmentRanges(size, SEGMENT));
    assert.ok(inFlight.ranges.length >= 3, `${inFlight.ranges.length} pieces`);
    assert.deepEqual(await inFlight.digests, parseSegmentDigests(readFileSync(segmentsFileOf(file), 'utf8'))?.segments);
    assert.ok(inFlight.hashedMs !== undefined && inFlight.hashedMs >= inFlight.startedMs);
  });

  it('hashes the whole file on a worker (the digest the .sha256 records) when the .sha256 binds no tree, as an older build wrote it', async () => {
    const file = copy();
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(file), 'utf8')) ?? '';
    rmSync(checksumFileOf(file));
    writeFileSync(checksumFileOf(file), formatChecksumLine(recorded, basename(file)));
    const inFlight = startSnapshotHash(file, EARLY);
    assert.ok(inFlight !== undefined);
    assert.deepEqual(inFlight.ranges, [[0, readFileSync(file).length]]);
    assert.deepEqual(await inFlight.digests, [recorded]);
  });

  it('is taken over by the check when it hashed the very file the check opens', async () => {
    const file = copy();
    const loaded = await loadSnapshot(file, { ...CHECK, inFlight: startSnapshotHash(file, EARLY) });
    try {
      assert.equal(loaded.hashed, true);
      assert.equal(loaded.hashedEarly, true);
      assert.equal(loaded.identity, fileIdentity(file));
    } finally {
      loaded.snapshot.close();
    }
  });

  it('refuses a file whose last segment is damaged, from the early digests, naming that segment', async () => {
    const file = copy();
    const bytes = readFileSync(file);
    const last = segmentRanges(bytes.length, SEGMENT).length - 1;
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    const inFlight = startSnapshotHash(file, EARLY);
    assert.ok(inFlight !== undefined);
    await assert.rejects(loadSnapshot(file, { ...CHECK, inFlight }), (error: Error) => {
      assert.ok(error instanceof SnapshotRejectedError);
      assert.match(error.message, new RegExp(`refused: content: segment ${last} \\(bytes \\d+-${bytes.length}\\) sha256 [0-9a-f]{64} does not match`));
      return true;
    });
  });

  it('is abandoned, and the file hashed by the check, when the dataset path names another file by then', async () => {
    const first = copy();
    const second = copy();
    const dataset = join(dir, 'current-repointed.sqlite');
    copySnapshotWithDigests(first, dataset);
    const inFlight = startSnapshotHash(dataset, EARLY);
    assert.ok(inFlight !== undefined);
    // A rename over the path: the early hash read the old inode.
    unlinkSync(dataset);
    copyFileSync(second, dataset);
    const loaded = await loadSnapshot(dataset, { ...CHECK, inFlight });
    try {
      assert.equal(loaded.hashedEarly, false);
      assert.equal(loaded.identity, fileIdentity(dataset));
      assert.notEqual(loaded.identity, inFlight.identity);
    } finally {
      loaded.snapshot.close();
    }
  });

  it('is abandoned when the file changed in place after it started (its identity moved)', async () => {
    const file = copy();
    const inFlight = startSnapshotHash(file, EARLY);
    assert.ok(inFlight !== undefined);
    utimesSync(file, new Date(), new Date(Date.now() - 60_000));
    const loaded = await loadSnapshot(file, { ...CHECK, inFlight });
    try {
      assert.equal(loaded.hashedEarly, false);
      assert.notEqual(loaded.identity, inFlight.identity);
    } finally {
      loaded.snapshot.close();
    }
  });

  it('is abandoned (its workers stopped) when the check refuses the file before hashing', async () => {
    // Not a snapshot: refused on its first 100 bytes, long before 512 MiB could be hashed.
    const file = join(dir, 'not-a-snapshot.sqlite');
    writeFileSync(file, 'not a snapshot\n');
    truncateSync(file, 512 * 1024 * 1024);
    const inFlight = startSnapshotHash(file, { workers: 1 });
    assert.ok(inFlight !== undefined);
    await assert.rejects(loadSnapshot(file, { inFlight }), /refused: header: /);
    await assert.rejects(inFlight.digests, HashAbortedError);
    assert.equal(inFlight.hashedMs, undefined);
  });

  it('starts nothing for a missing file or one small enough to hash in place', () => {
    assert.equal(startSnapshotHash(join(dir, 'no-such.sqlite'), EARLY), undefined);
    assert.equal(startSnapshotHash(copy(), { workers: 2 }), undefined);
  });
});
