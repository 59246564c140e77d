/**
 * Builds a snapshot into a temporary file and publishes it atomically: fsync, write its checksum file
 * `<out>/<revision>.sqlite.sha256` and its segments file `.sqlite.segments`, whose digest the `.sha256`'s
 * second line records (renamed into place before the snapshot, so no reader sees the snapshot without them), rename to `<out>/<revision>.sqlite`, then repoint
 * `<out>/current.sqlite`. All three are published read-only (PUBLISHED_FILE_MODE): a snapshot is replaced by
 * rename, never edited or copied over, and a gateway stops serving a file written to in place (docs/operators.md
 * "Operations"); the mode turns the easy mistake, a `cp` over `current.sqlite`, into a refusal. A failed or interrupted build leaves nothing behind: its temporary files are
 * removed, and so is any file it had already renamed into place, so the previously published revision
 * stays exactly as it was. Temporaries of a build killed outright are swept by the next build.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Corpus } from '../corpus/corpus-types.ts';
import type { Revision } from '../contract/parse-revision.ts';
import { computeRevision, liveCitySlugs } from '../revision/compute-revision.ts';
import { cityTaskInputs } from './city-tasks.ts';
import type { BuildLaneChooser } from './choose-build-lane.ts';
import { defaultBuildWorkers, startCityTaskRunner, type CityTaskRunner, type CityWorkers } from './city-worker-pool.ts';
import { runBuildSteps, runBuildStepsAsync, type BuildSteps } from './run-build-steps.ts';
import { checksumFileOf, formatChecksumLines } from './snapshot-checksum.ts';
import { digestFileWithSegments, formatSegmentDigests, segmentsFileOf } from './snapshot-segments.ts';
import { buildTemporaryPath, sweepStaleBuildFiles } from './sweep-stale-build-files.ts';
import { writeSnapshotSteps, type SnapshotSummary } from './write-snapshot.ts';

/** Mode of a published snapshot and its side files: read-only for everyone (a non-root `cp` over it fails). */
export const PUBLISHED_FILE_MODE = 0o444;

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
  /** Worker threads for the per-city work (0: all on this thread); by default defaultBuildWorkers. */
  workers?: number;
  /** Which of those `workers` takes each batch of cities (choose-build-lane.ts); tests scramble it. */
  chooseLane?: BuildLaneChooser;
  /**
   * Worker threads started before the corpus was loaded (start-build-workers-ahead.ts), used instead of
   * starting new ones unless `workers` is given or the corpus has too few live cities for workers. The
   * build owns them from here: it closes them, used or not.
   */
  cityWorkers?: CityWorkers;
}

/** Builds `corpus` and publishes it under `outDir`. */
export function buildAndPublish(corpus: Corpus, outDir: string, onProgress: (message: string) => void = () => {}, options: PublishOptions = {}): PublishedSnapshot {
  return runBuildSteps(publishSteps(corpus, outDir, onProgress, options));
}

/**
 * buildAndPublish that can be interrupted: when `signal` aborts (the CLI aborts it on SIGINT and SIGTERM),
 * the build stops at its next step, removes what it wrote and rejects with `signal.reason`.
 */
export function buildAndPublishInterruptibly(corpus: Corpus, outDir: string, signal: AbortSignal, onProgress: (message: string) => void = () => {}, options: PublishOptions = {}): Promise<PublishedSnapshot> {
  return runBuildStepsAsync(publishSteps(corpus, outDir, onProgress, options), signal);
}

function* publishSteps(corpus: Corpus, outDir: string, onProgress: (message: string) => void, options: PublishOptions): BuildSteps<PublishedSnapshot> {
  mkdirSync(outDir, { recursive: true });
  const swept = sweepStaleBuildFiles(outDir);
  if (swept.length > 0) onProgress(`build: removed ${swept.length === 1 ? 'a file' : `${swept.length} files`} left by a killed build: ${swept.join(', ')}`);
  const started = Date.now();
  const slugs = liveCitySlugs(corpus);
  const runner = startRunner(corpus, slugs.length, options);
  const temporary = buildTemporaryPath(outDir, 'building');
  // Final paths this build renamed into place and that did not exist before: removed again on failure.
  const placed: string[] = [];
  let published = false;
  try {
    // The cities' digests on the workers too: reading and digesting every row is a second pass over the corpus.
    const digests = new Map<string, string>();
    for (const result of runner.run(slugs.map((slug) => ({ kind: 'digest', slug })))) {
      if (result.kind !== 'digest') throw new Error(`build worker answered a ${result.kind} task to a digest task`);
      digests.set(result.slug, result.digest);
      yield;
    }
    const revision = computeRevision(corpus, digests);
    onProgress(`build: revision ${revision.revision} computed in ${((Date.now() - started) / 1000).toFixed(1)} s${runner.workers > 0 ? ` (${runner.workers} worker threads)` : ''}`);
    const file = join(outDir, `${revision.revision}.sqlite`);
    const summary = yield* writeSnapshotSteps(corpus, revision, temporary, onProgress, { runner });
    fsyncPath(temporary);
    yield;
    // One read of the file yields both digests; both files are in place before the snapshot appears.
    const fileDigests = digestFileWithSegments(temporary, options.segmentBytes);
    // The `.sha256` binds the segments file by its digest, so the gateway may check the pieces on every core.
    const segmentsText = formatSegmentDigests(fileDigests);
    writeFileSync(segmentsFileOf(temporary), segmentsText);
    writeFileSync(checksumFileOf(temporary), formatChecksumLines(fileDigests.sha256, basename(file), sha256OfText(segmentsText), basename(segmentsFileOf(file))));
    fsyncPath(checksumFileOf(temporary));
    fsyncPath(segmentsFileOf(temporary));
    for (const path of [temporary, checksumFileOf(temporary), segmentsFileOf(temporary)]) chmodSync(path, PUBLISHED_FILE_MODE);
    yield;
    for (const [from, to] of [[checksumFileOf(temporary), checksumFileOf(file)], [segmentsFileOf(temporary), segmentsFileOf(file)], [temporary, file]] as const) {
      if (!pathExists(to)) placed.push(to);
      renameSync(from, to);
    }
    pointCurrentAt(outDir, basename(file));
    published = true;
    onProgress(`build: ${summary.rows} rows in ${summary.cities} cities written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { revision: revision.revision, file, summary };
  } finally {
    runner.close();
    if (!published) for (const path of placed) rmSync(path, { force: true });
    for (const path of [temporary, `${temporary}-journal`, checksumFileOf(temporary), segmentsFileOf(temporary)]) rmSync(path, { force: true });
  }
}

function sha256OfText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function startRunner(corpus: Corpus, liveCities: number, { workers, cityWorkers, chooseLane }: PublishOptions): CityTaskRunner {
  const wanted = workers ?? defaultBuildWorkers(liveCities);
  if (cityWorkers !== undefined && workers === undefined && wanted > 0) {
    try {
      return cityWorkers.runner(cityTaskInputs(corpus), corpus);
    } catch (error) {
      cityWorkers.close();
      throw error;
    }
  }
  cityWorkers?.close();
  return startCityTaskRunner(cityTaskInputs(corpus), corpus, wanted, chooseLane);
}

/** Repoints `current.sqlite` with a relative symlink swapped in by rename, so readers never see it missing. */
export function pointCurrentAt(outDir: string, fileName: string): void {
  const link = buildTemporaryPath(outDir, 'current');
  symlinkSync(fileName, link);
  try {
    renameSync(link, join(outDir, CURRENT_SNAPSHOT));
  } catch (error) {
    rmSync(link, { force: true });
    throw error;
  }
  fsyncPath(outDir);
}

function pathExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
