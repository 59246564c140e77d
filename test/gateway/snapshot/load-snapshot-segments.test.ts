/**
 * The start-up check through segment digests: a snapshot published with small segments is checked on
 * several workers, and each way of damaging the file or its digests is refused, naming the check.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checksumFileOf, parseChecksumLine } from '../../../build/snapshot/snapshot-checksum.ts';
import { digestFileWithSegments, parseSegmentDigests, segmentRanges, segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
import { loadSnapshot } from '../../../gateway/snapshot/load-snapshot.ts';
import { publishSegmentedSnapshot, type SegmentedSnapshot } from '../../support/segmented-snapshot.ts';

const SEGMENT = 16 * 1024;
const VIA_WORKERS = { inlineHashBytes: 0, hashWorkers: 3 } as const;

describe('snapshot segments', () => {
  let snapshot: SegmentedSnapshot;
  let dir: string;
  let published: string;
  before(() => {
    snapshot = publishSegmentedSnapshot(SEGMENT);
    ({ dir, published } = snapshot);
  });
  after(() => snapshot.remove());

  /** A copy of the published snapshot with both digest files, to damage. */
  const copy = () => snapshot.copy();

  it('are published beside the snapshot: each slice\'s SHA-256, bound to the whole-file digest', () => {
    const bytes = readFileSync(published);
    const segments = parseSegmentDigests(readFileSync(segmentsFileOf(published), 'utf8'));
    assert.ok(segments !== undefined);
    assert.equal(segments.fileBytes, bytes.length);
    assert.equal(segments.sha256, parseChecksumLine(readFileSync(checksumFileOf(published), 'utf8')));
    assert.equal(segments.sha256, createHash('sha256').update(bytes).digest('hex'));
    const ranges = segmentRanges(bytes.length, SEGMENT);
    assert.ok(ranges.length >= 3, `${ranges.length} segments`);
    assert.deepEqual(segments.segments, ranges.map(([start, end]) => createHash('sha256').update(bytes.subarray(start, end)).digest('hex')));
  });

  it('split a file at every boundary, the last slice short, and an empty file into one empty slice', () => {
    assert.deepEqual(segmentRanges(10, 4), [[0, 4], [4, 8], [8, 10]]);
    assert.deepEqual(segmentRanges(8, 4), [[0, 4], [4, 8]]);
    assert.deepEqual(segmentRanges(0, 4), [[0, 0]]);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    assert.deepEqual(digestFileWithSegments(empty, 4).segments, [createHash('sha256').digest('hex')]);
  });

  it('let an intact snapshot through, hashed on several workers', async () => {
    const loaded = await loadSnapshot(copy(), VIA_WORKERS);
    assert.equal(loaded.hashed, true);
    loaded.snapshot.close();
  });

  it('refuse a flipped byte, naming the segment that holds it', async () => {
    const file = copy();
    const bytes = readFileSync(file);
    const offset = bytes.lastIndexOf('Alpha Roof Repair Grant');
    bytes[offset + 3] = (bytes[offset + 3] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    const segment = Math.floor((offset + 3) / SEGMENT);
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), new RegExp(`refused: content: segment ${segment} \\(bytes ${segment * SEGMENT}-`));
  });

  it('refuse a damaged file whose segments were rewritten to match it, still naming the .sha256 digest: the whole file is what .sha256 vouches for', async () => {
    const file = copy();
    const bytes = readFileSync(file);
    const at = bytes.lastIndexOf('Alpha Roof Repair Grant') + 3;
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(file), 'utf8'));
    // Every slice's digest now that of the damaged bytes, the whole-file digest left as the .sha256 says.
    writeFileSync(segmentsFileOf(file), JSON.stringify({ ...digestFileWithSegments(file, SEGMENT), sha256: recorded }));
    assert.notEqual(createHash('sha256').update(bytes).digest('hex'), recorded, 'sha256sum -c fails on this file');
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), new RegExp(`refused: content: file sha256 [0-9a-f]{64} does not match ${recorded} recorded in .*\\.sha256; every slice matches`));
  });

  it('refuse a segments file that names another whole-file digest, or is not one', async () => {
    const other = copy();
    const segments = JSON.parse(readFileSync(segmentsFileOf(other), 'utf8')) as { sha256: string };
    writeFileSync(segmentsFileOf(other), JSON.stringify({ ...segments, sha256: '0'.repeat(64) }));
    await assert.rejects(loadSnapshot(other, VIA_WORKERS), /refused: checksum: .*\.segments records sha256 0{64}/);

    const garbled = copy();
    writeFileSync(segmentsFileOf(garbled), '{"format":"hra-segments-1"}');
    await assert.rejects(loadSnapshot(garbled, VIA_WORKERS), /refused: checksum: .*\.segments is not a segments file/);
  });

  it('fall back to the whole-file digest when a snapshot was published without segments', async () => {
    const file = copy();
    rmSync(segmentsFileOf(file));
    const loaded = await loadSnapshot(file, VIA_WORKERS);
    loaded.snapshot.close();
    const bytes = readFileSync(file);
    const at = bytes.lastIndexOf('Alpha Roof Repair Grant') + 3;
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), /refused: content: file sha256 [0-9a-f]{64} does not match/);
  });
});
