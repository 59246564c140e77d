import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { createSeededRandom } from '../../../build/synth/seeded-random.ts';

const draw = (seed: number | string, n = 8) => {
  const random = createSeededRandom(seed);
  return Array.from({ length: n }, () => random.next());
};

describe('createSeededRandom', () => {
  it('repeats its sequence for the same seed', () => assert.deepEqual(draw(1), draw(1)));
  it('differs between nearby seeds', () => assert.notDeepEqual(draw(1), draw(2)));
  it('stays in range', () => {
    const random = createSeededRandom('range');
    for (let i = 0; i < 10_000; i += 1) {
      const value = random.next();
      assert.ok(value >= 0 && value < 1);
      const k = random.between(3, 5);
      assert.ok(k >= 3 && k <= 5 && Number.isInteger(k));
    }
  });
  it('is roughly uniform', () => {
    const random = createSeededRandom(7);
    const buckets = [0, 0, 0, 0];
    for (let i = 0; i < 40_000; i += 1) {
      const k = random.int(4);
      buckets[k] = (buckets[k] ?? 0) + 1;
    }
    for (const count of buckets) assert.ok(Math.abs(count - 10_000) < 600, `bucket count ${count}`);
  });
  it('shuffles into a permutation', () => {
    const shuffled = createSeededRandom(3).shuffle(Array.from({ length: 50 }, (_, i) => i));
    assert.deepEqual([...shuffled].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
    assert.notDeepEqual(shuffled, Array.from({ length: 50 }, (_, i) => i));
  });
  it('forks independent, reproducible streams', () => {
    const a = createSeededRandom(9).fork('x');
    const b = createSeededRandom(9).fork('x');
    const c = createSeededRandom(9).fork('y');
    const first = [a.next(), a.next()];
    assert.deepEqual(first, [b.next(), b.next()]);
    assert.notDeepEqual(first, [c.next(), c.next()]);
  });
});
