/**
 * The strict fact audit's published bound: the upper end of the exact (Clopper-Pearson) two-sided 95%
 * interval of a binomial error rate. Exact, so it never understates the rate a small sample supports
 * (docs/decisions.md "The strict fact audit").
 */

/** The bound's method and confidence, as reports and readiness name them. */
export const ERROR_BOUND = { method: 'clopper-pearson', confidence: 0.95, sides: 'two-sided' } as const;

/** Decimals a published bound carries; it is rounded up, so rounding never makes it smaller. */
const DECIMALS = 6;

/**
 * The upper end of the Clopper-Pearson two-sided `confidence` interval for `errors` in `trials`: the rate p
 * at which seeing `errors` or fewer has probability (1 - confidence) / 2. Rounded up to 6 decimals.
 */
export function errorRateUpperBound(errors: number, trials: number, confidence: number = ERROR_BOUND.confidence): number {
  if (!Number.isInteger(trials) || trials < 1) throw new RangeError(`trials must be a whole number of at least 1, not ${trials}`);
  if (!Number.isInteger(errors) || errors < 0 || errors > trials) throw new RangeError(`errors must be a whole number from 0 to ${trials}, not ${errors}`);
  if (errors === trials) return 1;
  const tail = (1 - confidence) / 2;
  // P(X <= errors) falls as p rises; bisect to where it crosses `tail`. 200 halvings pass double precision.
  let low = errors / trials;
  let high = 1;
  for (let step = 0; step < 200 && high - low > Number.EPSILON; step += 1) {
    const middle = (low + high) / 2;
    if (binomialCdf(errors, trials, middle) > tail) low = middle;
    else high = middle;
  }
  const scale = 10 ** DECIMALS;
  return Math.min(1, Math.ceil(high * scale - 1e-9) / scale);
}

/** P(X <= k) for X ~ Binomial(n, p), 0 < p < 1, summed in log space so large n does not underflow. */
function binomialCdf(k: number, n: number, p: number): number {
  const logRatio = Math.log(p) - Math.log1p(-p);
  let logTerm = n * Math.log1p(-p); // k = 0: (1 - p)^n
  let logSum = logTerm;
  for (let i = 0; i < k; i += 1) {
    logTerm += Math.log((n - i) / (i + 1)) + logRatio;
    logSum = logSum > logTerm ? logSum + Math.log1p(Math.exp(logTerm - logSum)) : logTerm + Math.log1p(Math.exp(logSum - logTerm));
  }
  return Math.exp(logSum);
}
