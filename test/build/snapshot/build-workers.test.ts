import * as assert from 'node:assert/strict';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { computeRevision, liveCitySlugs } from '../../../build/revision/compute-revision.ts';
import { cityTaskInputs } from '../../../build/snapshot/city-tasks.ts';
import { startCityTaskRunner } from '../../../build/snapshot/city-worker-pool.ts';
import { writeSnapshot } from '../../../build/snapshot/write-snapshot.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
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
});
