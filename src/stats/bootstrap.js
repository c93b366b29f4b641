// Percentile bootstrap intervals. No maintained npm package offers a seeded, two-sample bootstrap of a
// ratio, so the loop is here; quantiles use simple-statistics. Resamples go into one reused typed array
// (sorted natively): a run report computes thousands of intervals, and this keeps it well under a second.
import { probit, quantileSorted } from 'simple-statistics';
import { betaDeviate, seededRandom } from './random.js';

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_SEED = 20261121;

/**
 * From this many samples on (a side), intervals come from order statistics instead of resampling: the
 * bootstrap's cost grows with resamples x n log n (a results file at the schema's bounds, 99 metrics of
 * 10,000 samples, took minutes to publish), while the distribution-free interval of a median needs one sort.
 * At this size the two agree closely (the bootstrap's median interval is itself an order-statistic one in
 * the limit); below it, where every real run is (5 to 50 samples a side), nothing changes.
 * When only one side of a ratio is this large (10,000 samples against 5), the ratio is still bootstrapped,
 * but the large side's resampled median is drawn directly (drawnMedian), not resampled and sorted.
 */
export const LARGE_SAMPLE = 300;

/**
 * Percentile bootstrap interval of `stat` over `xs`. Deterministic for a given seed.
 * @param {number[]} xs
 * @param {(sample: number[]) => number} stat
 * @param {{ level?: number, resamples?: number, seed?: number }} [opts]
 * @returns {{ low: number, high: number }}
 */
export function bootstrapCI(xs, stat, { level = 0.95, resamples = DEFAULT_RESAMPLES, seed = DEFAULT_SEED } = {}) {
  if (xs.length === 0) return { low: NaN, high: NaN };
  const random = seededRandom(seed);
  const stats = new Array(resamples);
  for (let i = 0; i < resamples; i++) stats[i] = stat(Array.from(resample(xs, random, new Float64Array(xs.length))));
  return percentileInterval(stats, level);
}

/**
 * Ratio of medians candidate/baseline with a percentile bootstrap interval; each group is resampled on its
 * own (the groups are independent runs of the same benchmark in two environments).
 * @param {number[]} baseline
 * @param {number[]} candidate
 * @param {{ level?: number, resamples?: number, seed?: number }} [opts]
 * @returns {{ ratio: number, low: number, high: number }}
 */
export function ratioOfMedians(
  baseline,
  candidate,
  { level = 0.95, resamples = DEFAULT_RESAMPLES, seed = DEFAULT_SEED } = {},
) {
  if (baseline.length === 0 || candidate.length === 0) return { ratio: NaN, low: NaN, high: NaN };
  const sortedB = Float64Array.from(baseline).sort();
  const sortedC = Float64Array.from(candidate).sort();
  const ratio = sortedMedian(sortedC) / sortedMedian(sortedB);
  if (Math.min(baseline.length, candidate.length) >= LARGE_SAMPLE) {
    const large = largeSampleRatio(sortedB, sortedC, ratio, level);
    if (large) return large;
  }
  const random = seededRandom(seed);
  // One side at LARGE_SAMPLE or more (the other is not, or the order statistics above decided): its
  // resampled median is drawn, in constant time; sorting 10,000 samples in each resample took 45 s and more
  // to publish a file at the bounds. Below LARGE_SAMPLE each side is resampled and sorted as it always was,
  // from the same seeded draws: the intervals of real runs are unchanged.
  const medianOf = (/** @type {number[]} */ xs, /** @type {Float64Array} */ sorted) => {
    if (xs.length >= LARGE_SAMPLE) return () => drawnMedian(sorted, random);
    const buf = new Float64Array(xs.length);
    return () => sortedMedian(resample(xs, random, buf).sort());
  };
  const medianC = medianOf(candidate, sortedC);
  const medianB = medianOf(baseline, sortedB);
  const ratios = [];
  for (let i = 0; i < resamples; i++) {
    const r = medianC() / medianB();
    // A zero baseline median in a resample makes the ratio undefined; such resamples carry no information.
    if (Number.isFinite(r)) ratios.push(r);
  }
  if (ratios.length === 0) return { ratio, low: NaN, high: NaN };
  return { ratio, ...percentileInterval(ratios, level) };
}

/** @param {number[] | Float64Array} values @param {number} level */
function percentileInterval(values, level) {
  // a typed array sorts numerically and natively, several times faster than a comparator on an Array
  const sorted = /** @type {number[]} */ (/** @type {unknown} */ (Float64Array.from(values).sort()));
  const tail = (1 - level) / 2;
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}

/**
 * Fills `into` with a resample with replacement of `xs`.
 * @param {number[]} xs @param {() => number} random @param {Float64Array} into
 */
function resample(xs, random, into) {
  for (let i = 0; i < into.length; i++) into[i] = xs[Math.floor(random() * xs.length)];
  return into;
}

/** @param {Float64Array} s ascending, non-empty */
function sortedMedian(s) {
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The median of one bootstrap resample of `sorted`, drawn with exactly the distribution that resampling
 * n values and sorting them gives, in constant time. A resample is n ranks drawn uniformly, floor(n U) with
 * U uniform on [0, 1); its j-th smallest is floor(n U(j)), where U(j), the j-th smallest of n uniforms, is
 * Beta(j, n - j + 1). For an even n the next one up is the smallest of the n - j uniforms above U(j):
 * U(j) + (1 - U(j)) W, W ~ Beta(1, n - j) = 1 - V^(1 / (n - j)). Used from LARGE_SAMPLE on (j >= 150).
 * @param {Float64Array} sorted ascending, n >= 2 @param {() => number} random
 */
export function drawnMedian(sorted, random) {
  const n = sorted.length;
  const j = (n + 1) >> 1;
  const u = betaDeviate(j, n - j + 1, random);
  const at = (/** @type {number} */ x) => sorted[Math.min(n - 1, Math.floor(n * x))];
  if (n % 2) return at(u);
  return (at(u) + at(u + (1 - u) * (1 - random() ** (1 / (n - j))))) / 2;
}

/**
 * bootstrapCI(xs, median) on the fast path (same resamples for the same seed).
 * @param {number[]} xs
 * @param {{ level?: number, resamples?: number, seed?: number }} [opts]
 */
export function bootstrapMedianCI(xs, { level = 0.95, resamples = DEFAULT_RESAMPLES, seed = DEFAULT_SEED } = {}) {
  if (xs.length === 0) return { low: NaN, high: NaN };
  if (xs.length >= LARGE_SAMPLE) {
    const sorted = Float64Array.from(xs).sort();
    const { lo, hi } = medianRanks(sorted.length, level);
    return { low: sorted[lo], high: sorted[hi] };
  }
  const random = seededRandom(seed);
  const buf = new Float64Array(xs.length);
  const stats = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) stats[i] = sortedMedian(resample(xs, random, buf).sort());
  return percentileInterval(stats, level);
}

/**
 * The 0-based ranks of the distribution-free interval of a median: the order statistics around n/2 that
 * cover it with probability `level` (normal approximation to the binomial, fine from a few dozen samples).
 * @param {number} n @param {number} level
 */
function medianRanks(n, level) {
  const z = probit(1 - (1 - level) / 2);
  const half = (z * Math.sqrt(n)) / 2;
  const lo = Math.max(0, Math.floor((n + 1) / 2 - half) - 1);
  const hi = Math.min(n - 1, Math.ceil((n + 1) / 2 + half) - 1);
  return { lo, hi };
}

/**
 * Ratio of medians for large samples: each log median's standard error from its order-statistic interval
 * (its width in log units over 2z), the two combined as independent groups, the interval taken around the
 * log ratio. Null when a bound is not positive (no log scale): the bootstrap decides then.
 * @param {Float64Array} sortedB @param {Float64Array} sortedC ascending @param {number} ratio @param {number} level
 */
function largeSampleRatio(sortedB, sortedC, ratio, level) {
  const z = probit(1 - (1 - level) / 2);
  const seLog = (/** @type {Float64Array} */ s) => {
    const { lo, hi } = medianRanks(s.length, level);
    return s[lo] > 0 ? (Math.log(s[hi]) - Math.log(s[lo])) / (2 * z) : NaN;
  };
  const se = Math.hypot(seLog(sortedB), seLog(sortedC));
  if (!(ratio > 0) || !Number.isFinite(se)) return null;
  return { ratio, low: ratio * Math.exp(-z * se), high: ratio * Math.exp(z * se) };
}
