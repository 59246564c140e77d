/**
 * A snapshot of the mini corpus published with small segments (so that a file of a few hundred KB is
 * checked through several of them, on workers), and copies of it with both digest files, to damage.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { buildAndPublish } from '../../build/snapshot/publish-snapshot.ts';
import { checksumFileOf } from '../../build/snapshot/snapshot-checksum.ts';
import { segmentsFileOf } from '../../build/snapshot/snapshot-segments.ts';
import { MINI_CORPUS } from './start-test-gateway.ts';
import { makeTempDir } from './temp-dir.ts';

/** The published snapshot, in a folder of its own. */
export interface SegmentedSnapshot {
  readonly dir: string;
  readonly published: string;
  /** A fresh copy of the published snapshot with its `.sha256` and `.segments`. */
  copy(): string;
  /** The same, under the published names in a folder of its own, so that `sha256sum -c` there checks the copy. */
  copyAsPublished(): string;
  remove(): void;
}

/** Copies a snapshot and its `.sha256` and `.segments` files to `to`. */
export function copySnapshotWithDigests(from: string, to: string): void {
  copyFileSync(from, to);
  copyFileSync(checksumFileOf(from), checksumFileOf(to));
  copyFileSync(segmentsFileOf(from), segmentsFileOf(to));
}

/** Builds and publishes the mini corpus with segments of `segmentBytes` into a new temporary folder. */
export function publishSegmentedSnapshot(segmentBytes: number): SegmentedSnapshot {
  const dir = makeTempDir('hra-segments-');
  const published = buildAndPublish(loadCorpus(MINI_CORPUS), join(dir, 'out'), () => {}, { segmentBytes }).file;
  let copies = 0;
  return {
    dir,
    published,
    copy: () => {
      const file = join(dir, `copy-${++copies}.sqlite`);
      copySnapshotWithDigests(published, file);
      return file;
    },
    copyAsPublished: () => {
      const folder = join(dir, `published-copy-${++copies}`);
      mkdirSync(folder);
      const file = join(folder, basename(published));
      copySnapshotWithDigests(published, file);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
