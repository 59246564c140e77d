import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorRateUpperBound } from '../../../build/contract/error-rate-upper-bound.ts';

// Reference values computed independently of this code, with SciPy 1.17.1:
//   python3 -c "from scipy.stats import beta; print(beta.ppf(0.975, x + 1, n - x))"
// (the Clopper-Pearson two-sided 95% interval's upper end is the Beta(x + 1, n - x) 0.975 quantile).
const SCIPY: readonly [errors: number, trials: number, bound: number][] = [
  [0, 300, 0.01222097469429355],
  [1, 40, 0.13158585848276572],
  [0, 5, 0.5218237501049814],
  [0, 10, 0.3084971078187607],
  [3, 100, 0.08517605297428002],
  [5, 57, 0.19295733056970338],
  [12, 1000, 0.02086767959103641],
];

describe('errorRateUpperBound', () => {
  for (const [errors, trials, reference] of SCIPY) {
    it(`${errors} in ${trials} gives the reference ${reference}, rounded up to 6 decimals`, () => {
      const bound = errorRateUpperBound(errors, trials);
      assert.ok(bound >= reference, `${bound} must not understate ${reference}`);
      assert.ok(bound - reference < 1e-6, `${bound} is within one rounding step of ${reference}`);
    });
  }

  it('with no error, is the closed form 1 - 0.025^(1/n) for every n up to the published scale', () => {
    for (const trials of [1, 2, 7, 36, 72, 300, 4000, 57_000]) {
      const closed = 1 - 0.025 ** (1 / trials);
      const bound = errorRateUpperBound(0, trials);
      assert.ok(bound >= closed && bound - closed < 1e-6, `${trials}: ${bound} vs ${closed}`);
    }
  });

  it('is 1 when every trial is an error, and refuses counts that are not a sample', () => {
    assert.equal(errorRateUpperBound(40, 40), 1);
    assert.throws(() => errorRateUpperBound(0, 0), /trials must be a whole number of at least 1, not 0/);
    assert.throws(() => errorRateUpperBound(41, 40), /errors must be a whole number from 0 to 40, not 41/);
    assert.throws(() => errorRateUpperBound(1.5, 40), /errors must be/);
  });

  it('rises with the errors and falls with the trials', () => {
    assert.ok(errorRateUpperBound(1, 40) > errorRateUpperBound(0, 40));
    assert.ok(errorRateUpperBound(1, 400) < errorRateUpperBound(1, 40));
  });
});
