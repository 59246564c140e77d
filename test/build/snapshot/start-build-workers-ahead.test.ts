import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { liveCitySlugs } from '../../../build/revision/compute-revision.ts';
import { defaultBuildWorkers, MIN_CITIES_FOR_WORKERS, startCityWorkers } from '../../../build/snapshot/city-worker-pool.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { sha256FileChunked } from '../../../build/snapshot/snapshot-checksum.ts';
import { startBuildWorkersAhead } from '../../../build/snapshot/start-build-workers-ahead.ts';
import { generateSynthCorpus } from '../../../build/synth/generate-synth-corpus.ts';
import { TEMPLATE_DIR } from '../synth/synth-test-support.ts';

describe('build workers started before the corpus is loaded', () => {
  const work = mkdtempSync(join(tmpdir(), 'hra-workers-ahead-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const corpusDir = join(work, 'corpus');
  // Enough program files that a build starts workers (MIN_CITIES_FOR_WORKERS).
  generateSynthCorpus({ template: loadCorpus(TEMPLATE_DIR), seed: 11, scale: 0.1, out: corpusDir });
  const corpus = loadCorpus(corpusDir);
  const reference = buildAndPublish(corpus, join(work, 'out-single'), () => {}, { workers: 0 });

  it('writes the same file as a build on one thread, using the digests asked ahead', () => {
    const workers = startBuildWorkersAhead(corpusDir);
    assert.ok(workers !== undefined, 'a corpus of this many program files starts workers ahead');
    assert.equal(workers.workers, defaultBuildWorkers(readdirSync(join(corpusDir, 'programs')).length));
    const published = buildAndPublish(corpus, join(work, 'out-ahead'), () => {}, { cityWorkers: workers });
    assert.equal(published.revision, reference.revision);
    assert.equal(sha256FileChunked(published.file), sha256FileChunked(reference.file));
  });

  it('drops digests of files the loaded corpus does not read, and a batch that failed ahead, and digests those cities again', () => {
    const slugs = liveCitySlugs(corpus);
    const files = new Map([...corpus.programFiles].map(([slug, file]) => [slug, resolve(file)]));
    // A city digested ahead from another file than the corpus reads: that digest must not be used.
    const moved = slugs[5]!;
    const elsewhere = join(work, 'elsewhere.ndjson');
    copyFileSync(files.get(slugs[6]!)!, elsewhere);
    files.set(moved, elsewhere);
    // A file that is not JSON fails its whole batch ahead (a file the loader would have refused, or one of no city).
    const broken = join(work, 'broken.ndjson');
    writeFileSync(broken, '{"id": \n');
    files.set(`${slugs[40]!}-stray`, broken);
    const workers = startCityWorkers(2);
    workers.digestAhead(new Map([...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))));
    const published = buildAndPublish(corpus, join(work, 'out-dropped'), () => {}, { cityWorkers: workers });
    assert.equal(published.revision, reference.revision);
    assert.equal(sha256FileChunked(published.file), sha256FileChunked(reference.file));
  });

  it('fails the build with the worker\'s error when a file the corpus reads vanished after the load', () => {
    const workers = startCityWorkers(2);
    const slug = liveCitySlugs(corpus).at(-1)!;
    workers.digestAhead(new Map([[slug, join(work, 'no-such-file.ndjson')]]));
    const broken = { ...corpus, programFiles: new Map([...corpus.programFiles, [slug, join(work, 'no-such-file.ndjson')]]) };
    const out = join(work, 'out-vanished');
    assert.throws(() => buildAndPublish(broken, out, () => {}, { cityWorkers: workers }), /^Error: build worker \d failed: .*ENOENT/);
    assert.deepEqual(readdirSync(out), []);
  });

  it('starts none for a corpus too small for workers, or without a programs folder', () => {
    assert.equal(startBuildWorkersAhead(TEMPLATE_DIR), undefined);
    assert.ok(readdirSync(join(TEMPLATE_DIR, 'programs')).length < MIN_CITIES_FOR_WORKERS);
    assert.equal(startBuildWorkersAhead(join(work, 'no-such-corpus')), undefined);
  });
});
