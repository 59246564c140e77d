import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { apportion, planSynthCorpus, PUBLISHED_SCALE } from '../../../build/synth/plan-synth-corpus.ts';
import { createSeededRandom } from '../../../build/synth/seeded-random.ts';
import { US_STATES } from '../../../build/synth/us-states.ts';

describe('apportion', () => {
  const rows: Array<[number[], number]> = [[[1, 1, 1], 10], [[5, 0, 1], 7], [[0.2, 0.3, 0.5], 1], [[3, 3], 0]];
  for (const [weights, total] of rows) {
    it(`splits ${total} over ${weights.join(',')} exactly`, () => {
      const parts = apportion(weights, total);
      assert.equal(parts.reduce((a, b) => a + b, 0), total);
      parts.forEach((part, index) => assert.ok(Math.abs(part - (total * (weights[index] ?? 0)) / weights.reduce((a, b) => a + b, 0)) < 1));
    });
  }
});

describe('planSynthCorpus', () => {
  const plan = planSynthCorpus(1, { local: 1, shared: 1 }, createSeededRandom(1));
  const live = plan.cities.filter((city) => city.status === 'live');

  it('plans the published number of live cities over every state and DC, plus a handful not live', () => {
    assert.equal(live.length, PUBLISHED_SCALE.liveCities);
    assert.equal(new Set(live.map((city) => city.state.abbr)).size, US_STATES.length);
    const notLive = plan.cities.length - live.length;
    assert.ok(notLive >= 2 && notLive <= 12, `${notLive} cities not live`);
  });

  it('skews cities toward populous states', () => {
    const count = (abbr: string) => live.filter((city) => city.state.abbr === abbr).length;
    assert.ok(count('CA') > 5 * count('WY'));
  });

  it('plans the published local, shared and row totals', () => {
    const local = live.reduce((n, city) => n + city.localCount, 0);
    const stateRows = live.reduce((n, city) => n + (plan.statePrograms.get(city.state.abbr)?.length ?? 0), 0);
    const regionalRows = live.reduce((n, city) => n + city.regional.length, 0);
    const shared = [...plan.statePrograms.values()].reduce((n, list) => n + list.length, 0) + plan.regional.length;
    assert.ok(Math.abs(local - PUBLISHED_SCALE.localPrograms) < 0.02 * PUBLISHED_SCALE.localPrograms, `${local} local`);
    assert.equal(shared, PUBLISHED_SCALE.distinctPrograms - PUBLISHED_SCALE.localPrograms);
    const rows = local + stateRows + regionalRows;
    assert.ok(Math.abs(rows - PUBLISHED_SCALE.rows) < 0.05 * PUBLISHED_SCALE.rows, `${rows} rows`);
  });

  it('is deterministic', () => {
    const again = planSynthCorpus(1, { local: 1, shared: 1 }, createSeededRandom(1));
    assert.deepEqual(again.cities.map((city) => [city.name, city.localCount]), plan.cities.map((city) => [city.name, city.localCount]));
  });
});
