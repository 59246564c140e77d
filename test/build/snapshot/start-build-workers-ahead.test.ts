import * as assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ProgramFileToCheck } from '../../../build/corpus/check-program-file.ts';
import { formatProblem } from '../../../build/corpus/corpus-problem.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { liveCitySlugs } from '../../../build/revision/compute-revision.ts';
import { defaultBuildWorkers, MIN_CITIES_FOR_WORKERS, startCityWorkers } from '../../../build/snapshot/city-worker-pool.ts';
import { buildAndPublish } from '../../../build/snapshot/publish-snapshot.ts';
import { sha256FileChunked } from '../../../build/snapshot/snapshot-checksum.ts';
import { startBuildWorkersAhead } from '../../../build/snapshot/start-build-workers-ahead.ts';
import { generateSynthCorpus } from '../../../build/synth/generate-synth-corpus.ts';
import { BYTE_ORDER_MARK, editLine, faults, insertLine, prependBytes, problemsOf, replaceWithBytes, uncanonical } from '../corpus/planted-faults.ts';
import { TEMPLATE_DIR } from '../synth/synth-test-support.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

/** Asserts that loading `dir` with its program files checked on `workers` new worker threads reports what the checks on one thread report, at least `floor` problems. */
function assertSameProblemsOnWorkers(dir: string, workers: number, floor: number): void {
  const here = problemsOf(dir);
  assert.ok(here.length >= floor, here.map(formatProblem).join('\n'));
  const started = startCityWorkers(workers);
  try {
    assert.deepEqual(problemsOf(dir, { programFileChecker: started }), here);
  } finally {
    started.close();
  }
}

describe('build workers started before the corpus is loaded', () => {
  const work = makeTempDir('hra-workers-ahead-');
  after(() => rmSync(work, { recursive: true, force: true }));
  const corpusDir = join(work, 'corpus');
  // Enough program files that a build starts workers (MIN_CITIES_FOR_WORKERS), and several batches for each.
  generateSynthCorpus({ template: loadCorpus(TEMPLATE_DIR), seed: 11, scale: 0.1, out: corpusDir });
  const corpus = loadCorpus(corpusDir);
  const reference = buildAndPublish(corpus, join(work, 'out-single'), () => {}, { workers: 0 });

  it('check the program files for the loader, which loads the same corpus, and the build writes the same file as on one thread', () => {
    const workers = startBuildWorkersAhead(corpusDir);
    assert.ok(workers !== undefined, 'a corpus of this many program files starts workers ahead');
    assert.equal(workers.workers, defaultBuildWorkers(readdirSync(join(corpusDir, 'programs')).length));
    const loaded = loadCorpus(corpusDir, { programFileChecker: workers });
    assert.deepEqual(loaded, corpus);
    const published = buildAndPublish(loaded, join(work, 'out-ahead'), () => {}, { cityWorkers: workers });
    assert.equal(published.revision, reference.revision);
    assert.equal(sha256FileChunked(published.file), sha256FileChunked(reference.file));
  });

  it('report the same problems in the same order as the checks on one thread, across batches and workers', () => {
    const broken = join(work, 'broken', 'corpus');
    cpSync(corpusDir, broken, { recursive: true });
    const programs = readdirSync(join(broken, 'programs')).sort();
    const at = (index: number) => join(broken, 'programs', programs[index]!);
    const firstRow = (index: number) => JSON.parse(readFileSync(at(index), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    editLine(at(3), 1, '{"id": "broken", "name": ');
    editLine(at(40), 1, (row) => { row.fundingStatus = 'maybe'; row.maxAmount = 'lots'; });
    editLine(at(41), 1, (row) => { row.projectTypes = ['spaceship-repair']; row.category = 'nothing'; });
    appendFileSync(at(60), `${readFileSync(at(60), 'utf8').split('\n')[0]!.replace(/}$/, ', "id": "shadow"}')}\n`);
    insertLine(at(80), 2, '');
    appendFileSync(at(100), `${JSON.stringify(firstRow(100))}\n`);
    prependBytes(at(150), BYTE_ORDER_MARK);
    replaceWithBytes(at(190), 1, '"name":"', [0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9]);
    appendFileSync(at(200), '[1, 2]\n');
    const corrected = firstRow(120);
    appendFileSync(join(broken, 'corrections.ndjson'), `${JSON.stringify({ city: programs[120]!.replace(/\.ndjson$/, ''), programId: corrected.id, field: 'fundingStatus', value: 'maybe', reason: 'test', date: '2026-01-01' })}\n`);
    writeFileSync(join(broken, 'programs', 'no-such-city.ndjson'), `${JSON.stringify(firstRow(5))}\n`);
    writeFileSync(join(broken, 'programs', 'notes.txt'), 'not a program file\n');

    assertSameProblemsOnWorkers(broken, 2, 13);
  });

  it('report the same problems as the checks on one thread for the planted faults of the loader\'s tests, and with an invalid vocabularies.json', () => {
    const planted = (name: string, plants: ReadonlyArray<(root: string) => void>) => {
      const dir = join(work, name, 'corpus');
      cpSync(TEMPLATE_DIR, dir, { recursive: true });
      for (const plant of plants) plant(dir);
      return dir;
    };
    const invalidVocabularies = (root: string) => {
      const file = join(root, 'vocabularies.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"categories"', '"kategories"'));
    };
    // manifest.json's faults would stop the cross-file checks; the others are planted together.
    const uncanonicalRows = uncanonical.filter((fault) => fault.file !== 'manifest.json');
    for (const dir of [
      planted('faults', faults.map((fault) => fault.plant)),
      planted('uncanonical', uncanonicalRows.map((fault) => fault.plant)),
      planted('vocabularies', [...faults.map((fault) => fault.plant), invalidVocabularies]),
    ]) assertSameProblemsOnWorkers(dir, 1, 12);
  });

  it('keep no digest of a file the loaded corpus reads from another path: those cities are digested again', () => {
    const slugs = liveCitySlugs(corpus);
    // A city checked and digested from another file than the corpus reads: that digest must not be used.
    const moved = slugs[5]!;
    const elsewhere = join(work, 'elsewhere.ndjson');
    copyFileSync(corpus.programFiles.get(slugs[6]!)!, elsewhere);
    const files: ProgramFileToCheck[] = [...corpus.programFiles].map(([slug, path]) =>
      ({ slug, path: slug === moved ? elsewhere : path, root: slug === moved ? work : corpus.root, file: `corpus/programs/${slug}.ndjson`, corrections: [] }));
    const workers = startCityWorkers(2);
    for (const facts of workers.checkFiles(files, { vocabularies: corpus.vocabularies, correctionsFile: 'corpus/corrections.ndjson' })) {
      assert.deepEqual(facts.problems, []);
    }
    const published = buildAndPublish(corpus, join(work, 'out-dropped'), () => {}, { cityWorkers: workers });
    assert.equal(published.revision, reference.revision);
    assert.equal(sha256FileChunked(published.file), sha256FileChunked(reference.file));
  });

  it('fail the build with the worker\'s error when a file the corpus reads vanished after the load', () => {
    const workers = startCityWorkers(2);
    const slug = liveCitySlugs(corpus).at(-1)!;
    const broken = { ...corpus, programFiles: new Map([...corpus.programFiles, [slug, join(work, 'no-such-file.ndjson')]]) };
    const out = join(work, 'out-vanished');
    assert.throws(() => buildAndPublish(broken, out, () => {}, { cityWorkers: workers }), /^Error: build worker \d failed: .*ENOENT/);
    assert.deepEqual(readdirSync(out), []);
  });

  it('are none for a corpus too small for workers, or without a programs folder', () => {
    assert.equal(startBuildWorkersAhead(TEMPLATE_DIR), undefined);
    assert.ok(readdirSync(join(TEMPLATE_DIR, 'programs')).length < MIN_CITIES_FOR_WORKERS);
    assert.equal(startBuildWorkersAhead(join(work, 'no-such-corpus')), undefined);
  });
});
