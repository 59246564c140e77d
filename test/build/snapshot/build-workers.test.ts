import * as assert from 'node:assert/strict';
import { readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { computeRevision, liveCitySlugs } from '../../../build/revision/compute-revision.ts';
import { cityTaskInputs } from '../../../build/snapshot/city-tasks.ts';
import { startCityTaskRunner } from '../../../build/snapshot/city-worker-pool.ts';
import type { BuildLaneChooser } from '../../../build/snapshot/choose-build-lane.ts';
import { writeSnapshot } from '../../../build/snapshot/write-snapshot.ts';
import { buildAndPublish, CURRENT_SNAPSHOT } from '../../../build/snapshot/publish-snapshot.ts';
import { sha256FileChunked } from '../../../build/snapshot/snapshot-checksum.ts';
import { generateSynthCorpus } from '../../../build/synth/generate-synth-corpus.ts';
import { TEMPLATE_DIR } from '../synth/synth-test-support.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('a build on worker threads', () => {
  const work = makeTempDir('hra-build-workers-');
  after(() => rmSync(work, { recursive: true, force: true }));
  // Enough cities that the tasks go out in several batches to each worker, and are read back in order.
  const corpusDir = join(work, 'corpus');
  const synth = generateSynthCorpus({ template: loadCorpus(TEMPLATE_DIR), seed: 7, scale: 0.05, out: corpusDir });
  const corpus = loadCorpus(corpusDir);
  const build = (workers: number) => {
    const published = buildAndPublish(corpus, join(work, `out-${workers}`), () => {}, { workers });
    return { revision: published.revision, sha256: sha256FileChunked(published.file), rows: published.summary.rows };
  };

  it('writes the same file, byte for byte, as a build on one thread', () => {
    assert.ok(synth.liveCities > 64, `${synth.liveCities} live cities`);
    const single = build(0);
    assert.equal(single.rows, synth.liveRows);
    assert.deepEqual(build(1), single);
    assert.deepEqual(build(2), single);
    assert.deepEqual(build(3), single);
  });

  it('writes the same file when the workers were not sent the revision digests first (hra verify\'s rebuild)', () => {
    const single = buildAndPublish(corpus, join(work, 'out-verify-reference'), () => {}, { workers: 0 });
    const runner = startCityTaskRunner(cityTaskInputs(corpus), corpus, 2);
    const file = join(work, 'rebuilt.sqlite');
    try {
      writeSnapshot(corpus, computeRevision(corpus), file, () => {}, { runner });
    } finally {
      runner.close();
    }
    assert.equal(sha256FileChunked(file), sha256FileChunked(single.file));
  });

  it('fails the build with the worker\'s error and publishes nothing when a worker fails', () => {
    const broken = loadCorpus(corpusDir);
    const slug = liveCitySlugs(broken).at(-1) ?? '';
    const file = broken.programFiles.get(slug);
    assert.ok(file !== undefined, `live city ${slug} has a program file`);
    // The file vanishes after the corpus was loaded: the worker that reads it fails.
    const moved = `${file}.gone`;
    renameSync(file, moved);
    try {
      const out = join(work, 'out-broken');
      assert.throws(() => buildAndPublish(broken, out, () => {}, { workers: 2 }), /^Error: build worker \d failed: .*ENOENT/);
      assert.deepEqual(readdirSync(out), []);
    } finally {
      renameSync(moved, file);
    }
  });

  // A chooser that names lanes in an order of its own, whatever they hold: a fixed pseudo-random sequence.
  const scrambled = (seed: number): BuildLaneChooser => {
    let state = seed;
    return (outstanding) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % outstanding.length;
    };
  };
  const rebuild = (name: string, workers: number, chooseLane: BuildLaneChooser) => {
    const runner = startCityTaskRunner(cityTaskInputs(corpus), corpus, workers, chooseLane);
    const file = join(work, `${name}.sqlite`);
    try {
      writeSnapshot(corpus, computeRevision(corpus), file, () => {}, { runner });
    } finally {
      runner.close();
    }
    return sha256FileChunked(file);
  };

  it('writes the same file whichever worker takes each batch, and in whatever order they answer', () => {
    const single = buildAndPublish(corpus, join(work, 'out-order-reference'), () => {}, { workers: 0 });
    const expected = sha256FileChunked(single.file);
    const chosen: number[] = [];
    const recording: BuildLaneChooser = (outstanding) => {
      const lane = scrambled(11)(outstanding);
      chosen.push(lane);
      return lane;
    };
    assert.equal(rebuild('scrambled-2', 2, scrambled(3)), expected);
    assert.equal(rebuild('scrambled-3', 3, scrambled(5)), expected);
    // Every batch on the last worker, the others idle: the extreme a loaded machine tends to.
    assert.equal(rebuild('last-lane', 3, (outstanding) => outstanding.length - 1), expected);
    assert.equal(rebuild('recorded', 2, recording), expected);
    assert.ok(chosen.length > 4, `${chosen.length} batches chosen`);
  });

  it('fails the build and leaves the published revision in place when a worker fails mid-way, whichever worker it is', () => {
    const broken = loadCorpus(corpusDir);
    const out = join(work, 'out-mid-failure');
    const good = buildAndPublish(broken, out, () => {}, { workers: 0 });
    const slugs = liveCitySlugs(broken);
    const slug = slugs[Math.floor(slugs.length / 2)] ?? '';
    const file = broken.programFiles.get(slug);
    assert.ok(file !== undefined, `live city ${slug} has a program file`);
    const moved = `${file}.gone`;
    renameSync(file, moved);
    try {
      for (const seed of [1, 2]) {
        assert.throws(
          () => buildAndPublish(broken, out, () => {}, { workers: 2, chooseLane: scrambled(seed) }),
          /^Error: build worker \d failed: .*ENOENT/,
        );
        assert.equal(readlinkSync(join(out, CURRENT_SNAPSHOT)), `${good.revision}.sqlite`);
        // Nothing of the failed build is left beside the published files.
        assert.deepEqual(readdirSync(out).filter((name) => name !== CURRENT_SNAPSHOT && !name.startsWith(good.revision)), []);
      }
    } finally {
      renameSync(moved, file);
    }
  });
});
