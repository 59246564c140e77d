/** A build batch's share of the evidence: what a city worker is sent must be all that applies to its cities. */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadCorpus, readCityPrograms } from '../../../build/corpus/load-corpus.ts';
import { indexEvidence, rowUrls } from '../../../build/snapshot/city-evidence.ts';
import { markQuotesChecked, writeLinkTestCorpus } from '../../support/link-test-corpus.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('indexEvidence', () => {
  it('sends each batch the quote checks of its own cities, in corpus order', () => {
    const dir = writeLinkTestCorpus(join(makeTempDir('hra-city-evidence-'), 'corpus'));
    markQuotesChecked(dir, '2026-11-19'); // alpha/a-roof, beta/b-weather, beta/b-repair
    const corpus = loadCorpus(dir);
    const index = indexEvidence(corpus);
    for (const city of ['alpha', 'beta', 'gamma']) index.noteUrls(city, rowUrls(readCityPrograms(corpus, city)));
    const ids = (cities: string[]) => index.forCities(cities).quoteChecks.map((check) => `${check.city}/${check.programId}`);
    assert.deepEqual(ids(['alpha']), ['alpha/a-roof']);
    assert.deepEqual(ids(['beta', 'gamma']), ['beta/b-weather', 'beta/b-repair']);
    assert.deepEqual(ids(['gamma']), []);
  });
});
