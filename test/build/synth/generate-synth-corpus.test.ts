import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProgramRow } from '../../../build/corpus/corpus-types.ts';
import { loadCorpus, readCityPrograms } from '../../../build/corpus/load-corpus.ts';
import { generateSynthCorpus } from '../../../build/synth/generate-synth-corpus.ts';
import { PUBLISHED_SCALE } from '../../../build/synth/plan-synth-corpus.ts';
import { hashTree, loadTemplate, tempDir } from './synth-test-support.ts';

const template = loadTemplate();
const SCALE = 0.02;

describe('generateSynthCorpus', { skip: template.skip }, () => {
  const corpus = template.corpus!;
  const generate = (seed: number, label: string) => {
    const out = join(tempDir(label), 'out');
    return { out, summary: generateSynthCorpus({ template: corpus, seed, scale: SCALE, out }) };
  };
  const first = generate(1, 'a');

  it('writes a corpus that loads with zero problems', () => {
    const loaded = loadCorpus(first.out);
    assert.equal(loaded.cities.length, first.summary.allCities);
    assert.equal(loaded.national.length, 4);
    assert.ok(loaded.changes.length > 0 === corpus.changes.length > 0);
    const live = loaded.cities.filter((city) => city.status === 'live');
    assert.ok(live.some((city) => city.slug === loaded.manifest.defaultCity));
    assert.ok(loaded.cities.some((city) => city.status !== 'live'), 'some cities are not live');
    assert.deepEqual(Object.keys(loaded.reports).sort(), Object.keys(corpus.reports).sort());
  });

  it('is byte-identical for the same seed and differs for another', () => {
    const again = generate(1, 'b');
    const other = generate(2, 'c');
    const hashes = hashTree(first.out);
    assert.deepEqual(hashTree(again.out), hashes);
    assert.notDeepEqual(hashTree(other.out), hashes);
    assert.deepEqual(again.summary, { ...first.summary, out: again.out });
  });

  it('keeps the published proportions, approximately', () => {
    const loaded = loadCorpus(first.out);
    const live = loaded.cities.filter((city) => city.status === 'live');
    const names = new Map<string, Set<string>>();
    const urls = new Set<string>();
    let rows = 0;
    for (const city of live) {
      for (const row of readCityPrograms(loaded, city.slug)) {
        rows += 1;
        const key = row.name.trim().replace(/\s+/g, ' ').toLowerCase();
        names.set(key, (names.get(key) ?? new Set()).add(city.slug));
        if (row.url !== null) urls.add(row.url);
      }
    }
    const unique = [...names.values()].filter((cities) => cities.size === 1).length;
    const expected = (value: number) => value / PUBLISHED_SCALE.rows;
    const within = (label: string, actual: number, target: number, tolerance: number) =>
      assert.ok(Math.abs(actual - target) <= tolerance * target, `${label}: ${actual.toFixed(3)}, expected about ${target.toFixed(3)}`);
    within('live cities', live.length, PUBLISHED_SCALE.liveCities * SCALE, 0.05);
    within('rows per city', rows / live.length, PUBLISHED_SCALE.rows / PUBLISHED_SCALE.liveCities, 0.15);
    within('distinct names per row', names.size / rows, expected(PUBLISHED_SCALE.distinctPrograms), 0.2);
    within('distinct URLs per row', urls.size / rows, expected(PUBLISHED_SCALE.distinctUrls), 0.3);
    within('locally unique share of names', unique / names.size, PUBLISHED_SCALE.localPrograms / PUBLISHED_SCALE.distinctPrograms, 0.15);
    assert.equal(first.summary.liveRows, rows);
    assert.equal(first.summary.distinctNames, names.size);
    assert.equal(first.summary.locallyUniqueNames, unique);
    assert.equal(first.summary.distinctUrls, urls.size);
  });

  it('repeats each state program, with one id, name and URL, in every live city of its state', () => {
    const loaded = loadCorpus(first.out);
    const byState = new Map<string, ProgramRow[][]>();
    for (const city of loaded.cities.filter((c) => c.status === 'live')) {
      const stateRows = readCityPrograms(loaded, city.slug).filter((row) => /-s\d+$/.test(row.id));
      byState.set(city.stateAbbr, [...(byState.get(city.stateAbbr) ?? []), stateRows]);
    }
    for (const [state, cities] of byState) {
      const shape = (list: ProgramRow[]) => JSON.stringify(list.map((row) => [row.id, row.name, row.url]));
      assert.ok((cities[0] ?? []).length > 0, `${state} has state programs`);
      for (const list of cities) assert.equal(shape(list), shape(cities[0] ?? []), `state layer of ${state}`);
    }
  });

  it('cites only reserved example domains', () => {
    const loaded = loadCorpus(first.out);
    for (const city of loaded.cities) {
      for (const row of readCityPrograms(loaded, city.slug)) {
        if (row.url !== null) assert.match(new URL(row.url).hostname, /\.example\.org$/);
      }
    }
  });

  it('writes NDJSON with \\n line ends and no blank line', () => {
    const text = readFileSync(join(first.out, 'cities.ndjson'), 'utf8');
    assert.ok(!text.includes('\r') && text.endsWith('}\n') && !text.includes('\n\n'));
  });

  it('refuses a folder that is not empty', () => {
    const out = tempDir('full');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'keep.txt'), 'x');
    assert.throws(() => generateSynthCorpus({ template: corpus, seed: 1, scale: SCALE, out }), /not empty/);
  });
});
