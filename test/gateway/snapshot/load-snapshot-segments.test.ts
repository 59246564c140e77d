/**
 * The start-up check through segment digests: a snapshot published with small segments, its `.sha256`
 * binding the `.segments` (the tree), is checked piece by piece on several workers, and each way of
 * damaging the file or its digests is refused, naming the check; `sha256sum -c` agrees.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checksumFileOf, formatChecksumLine, parseChecksumFile, parseChecksumLine } from '../../../build/snapshot/snapshot-checksum.ts';
import { digestFileWithSegments, formatSegmentDigests, parseSegmentDigests, segmentRanges, segmentsFileOf } from '../../../build/snapshot/snapshot-segments.ts';
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
  /** A copy under the published names, in a folder of its own: `sha256sum -c` there checks it. */
  const copyAsPublished = () => snapshot.copyAsPublished();
  /** A copy whose `.sha256` is the one line an older build wrote: it binds no tree. */
  const copyAsOlderBuild = () => {
    const file = copy();
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(file), 'utf8')) ?? '';
    rmSync(checksumFileOf(file));
    writeFileSync(checksumFileOf(file), formatChecksumLine(recorded, basename(file)));
    return file;
  };
  /** Flips one bit at `offset` of `file`. */
  const flip = (file: string, offset: number) => {
    const bytes = readFileSync(file);
    bytes[offset] = (bytes[offset] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);
    return bytes;
  };
  /** `sha256sum -c` of `file`'s `.sha256`, in its folder: its exit status and output. */
  const sha256sumCheck = (file: string) => {
    try {
      return { ok: true, output: execFileSync('sha256sum', ['-c', basename(checksumFileOf(file))], { cwd: dirname(file), stdio: 'pipe' }).toString() };
    } catch (error) {
      return { ok: false, output: String((error as { stdout?: Buffer }).stdout ?? '') };
    }
  };

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

  it('are bound to the .sha256: its second line is the SHA-256 of the .segments file, so `sha256sum -c` checks both', () => {
    const recorded = parseChecksumFile(readFileSync(checksumFileOf(published), 'utf8'));
    assert.equal(recorded?.segmentsSha256, createHash('sha256').update(readFileSync(segmentsFileOf(published))).digest('hex'));
    const check = sha256sumCheck(published);
    assert.equal(check.ok, true, check.output);
    assert.deepEqual(check.output.trim().split('\n'), [`${basename(published)}: OK`, `${basename(segmentsFileOf(published))}: OK`]);
  });

  it('refuse a byte flipped in any piece, naming that piece, as `sha256sum -c` fails', async () => {
    const size = readFileSync(published).length;
    const ranges = segmentRanges(size, SEGMENT);
    for (const [piece, [start, end]] of ranges.entries()) {
      const file = copyAsPublished();
      assert.equal(sha256sumCheck(file).ok, true, 'sha256sum -c passes on the intact copy');
      // The last byte of the piece: the pages SQLite reads to open the file (the schema) come first.
      flip(file, end - 1);
      assert.equal(sha256sumCheck(file).ok, false, `sha256sum -c passes with piece ${piece} damaged`);
      await assert.rejects(loadSnapshot(file, VIA_WORKERS), new RegExp(`refused: content: segment ${piece} \\(bytes ${start}-${end}\\) sha256 [0-9a-f]{64} does not match [0-9a-f]{64} recorded in .*\\.segments \\(bound to `));
    }
  });

  it('refuse a damaged file whose segments were rewritten to match it: the .sha256 binds the segments file by its digest', async () => {
    const file = copyAsPublished();
    flip(file, readFileSync(file).lastIndexOf('Alpha Roof Repair Grant') + 3);
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(file), 'utf8'));
    writeFileSync(segmentsFileOf(file), formatSegmentDigests({ ...digestFileWithSegments(file, SEGMENT), sha256: recorded ?? '' }));
    assert.equal(sha256sumCheck(file).ok, false, 'sha256sum -c fails on this file');
    const bound = parseChecksumFile(readFileSync(checksumFileOf(file), 'utf8'))?.segmentsSha256;
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), new RegExp(`refused: checksum: .*\\.segments sha256 [0-9a-f]{64} does not match ${bound} recorded in .*\\.sha256$`));
  });

  it('refuse a tree whose pieces all match the file but that is not the one the .sha256 binds', async () => {
    // An intact file, its tree written again with the same digests but other bytes (a key order changed).
    const file = copy();
    const tree = parseSegmentDigests(readFileSync(segmentsFileOf(file), 'utf8'));
    assert.ok(tree !== undefined);
    writeFileSync(segmentsFileOf(file), `${JSON.stringify({ segments: tree.segments, format: tree.format, segmentBytes: tree.segmentBytes, fileBytes: tree.fileBytes, sha256: tree.sha256 })}\n`);
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), /refused: checksum: .*\.segments sha256 [0-9a-f]{64} does not match [0-9a-f]{64} recorded in .*\.sha256$/);
  });

  it('refuse a .sha256 whose second line names another file than the segments file', async () => {
    const file = copy();
    const text = readFileSync(checksumFileOf(file), 'utf8');
    rmSync(checksumFileOf(file));
    writeFileSync(checksumFileOf(file), text.replace('.segments\n', '.other\n'));
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), /refused: checksum: .*\.sha256 is not one sha256sum line, or two whose second names /);
  });

  it('refuse a damaged file of an older build whose segments were rewritten to match it, still naming the .sha256 digest: without a bound tree the whole file is what .sha256 vouches for', async () => {
    const file = copyAsOlderBuild();
    const bytes = flip(file, readFileSync(file).lastIndexOf('Alpha Roof Repair Grant') + 3);
    const recorded = parseChecksumLine(readFileSync(checksumFileOf(file), 'utf8'));
    // Every slice's digest now that of the damaged bytes, the whole-file digest left as the .sha256 says.
    writeFileSync(segmentsFileOf(file), JSON.stringify({ ...digestFileWithSegments(file, SEGMENT), sha256: recorded }));
    assert.notEqual(createHash('sha256').update(bytes).digest('hex'), recorded, 'sha256sum -c fails on this file');
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), new RegExp(`refused: content: file sha256 [0-9a-f]{64} does not match ${recorded} recorded in .*\\.sha256; every slice matches`));
  });

  it('refuse a flipped byte in a file of an older build, hashed whole, naming the segment that holds it', async () => {
    const file = copyAsOlderBuild();
    const offset = readFileSync(file).lastIndexOf('Alpha Roof Repair Grant') + 3;
    flip(file, offset);
    const segment = Math.floor(offset / SEGMENT);
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), new RegExp(`refused: content: segment ${segment} \\(bytes ${segment * SEGMENT}-.*\\(file sha256 [0-9a-f]{64} does not match `));
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

  it('fall back to the whole-file digest in one stream when the segments file is missing (`sha256sum -c --ignore-missing` passes)', async () => {
    const file = copyAsPublished();
    rmSync(segmentsFileOf(file));
    const loaded = await loadSnapshot(file, VIA_WORKERS);
    loaded.snapshot.close();
    assert.equal(execFileSync('sha256sum', ['-c', '--ignore-missing', basename(checksumFileOf(file))], { cwd: dirname(file) }).toString().trim(), `${basename(file)}: OK`);
    flip(file, readFileSync(file).lastIndexOf('Alpha Roof Repair Grant') + 3);
    await assert.rejects(loadSnapshot(file, VIA_WORKERS), /refused: content: file sha256 [0-9a-f]{64} does not match [0-9a-f]{64} recorded in [^;]*\.sha256$/);
  });
});
