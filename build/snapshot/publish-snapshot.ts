/**
 * Builds a snapshot into a temporary file and publishes it atomically: fsync, write its checksum file
 * `<out>/<revision>.sqlite.sha256` and its segments file `.sqlite.segments` (in place before the snapshot appears, so no reader sees one without
 * the other), rename to `<out>/<revision>.sqlite`, then repoint `<out>/current.sqlite`. A failure at any
 * step leaves the previously published revision exactly as it was.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Corpus } from '../corpus/corpus-types.ts';
import type { Revision } from '../contract/parse-revision.ts';
import { computeRevision } from '../revision/compute-revision.ts';
import { checksumFileOf, formatChecksumLine } from './snapshot-checksum.ts';
import { digestFileWithSegments, formatSegmentDigests, segmentsFileOf } from './snapshot-segments.ts';
import { writeSnapshot, type SnapshotSummary } from './write-snapshot.ts';

/** The link the gateway follows to the published revision. */
export const CURRENT_SNAPSHOT = 'current.sqlite';

/** Result of a published build. */
export interface PublishedSnapshot {
  revision: Revision;
  file: string;
  summary: SnapshotSummary;
}

/** Options of buildAndPublish. */
export interface PublishOptions {
  /** Bytes per digested segment (snapshot-segments.ts); tests make it small to get several. */
  segmentBytes?: number;
}

/** Builds `corpus` and publishes it under `outDir`. */
export function buildAndPublish(corpus: Corpus, outDir: string, onProgress: (message: string) => void = () => {}, options: PublishOptions = {}): PublishedSnapshot {
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  const revision = computeRevision(corpus);
  onProgress(`build: revision ${revision.revision} computed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const temporary = join(outDir, `.building-${process.pid}-${Date.now()}.sqlite`);
  const file = join(outDir, `${revision.revision}.sqlite`);
  try {
    const summary = writeSnapshot(corpus, revision, temporary, onProgress);
    fsyncPath(temporary);
    // One read of the file yields both digests; both files are in place before the snapshot appears.
    const digests = digestFileWithSegments(temporary, options.segmentBytes);
    writeFileSync(checksumFileOf(temporary), formatChecksumLine(digests.sha256, `${revision.revision}.sqlite`));
    writeFileSync(segmentsFileOf(temporary), formatSegmentDigests(digests));
    fsyncPath(checksumFileOf(temporary));
    fsyncPath(segmentsFileOf(temporary));
    renameSync(checksumFileOf(temporary), checksumFileOf(file));
    renameSync(segmentsFileOf(temporary), segmentsFileOf(file));
    renameSync(temporary, file);
    pointCurrentAt(outDir, `${revision.revision}.sqlite`);
    onProgress(`build: ${summary.rows} rows in ${summary.cities} cities written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { revision: revision.revision, file, summary };
  } finally {
    rmSync(temporary, { force: true });
    rmSync(`${temporary}-journal`, { force: true });
    rmSync(checksumFileOf(temporary), { force: true });
    rmSync(segmentsFileOf(temporary), { force: true });
  }
}

/** Repoints `current.sqlite` with a relative symlink swapped in by rename, so readers never see it missing. */
export function pointCurrentAt(outDir: string, fileName: string): void {
  const link = join(outDir, `.current-${process.pid}-${Date.now()}.sqlite`);
  symlinkSync(fileName, link);
  try {
    renameSync(link, join(outDir, CURRENT_SNAPSHOT));
  } catch (error) {
    rmSync(link, { force: true });
    throw error;
  }
  fsyncPath(outDir);
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
