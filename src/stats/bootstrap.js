// Percentile bootstrap intervals. No maintained npm package offers a seeded, two-sample bootstrap of a
// ratio, so the loop is here; quantiles use simple-statistics. Resamples go into one reused typed array
// (sorted natively): a run report computes thousands of intervals, and this keeps it well under a second.
import { quantileSorted } from 'simple-statistics';
import { seededRandom } from './random.js';

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_SEED = 20261121;

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
  const ratio = sortedMedian(Float64Array.from(candidate).sort()) / sortedMedian(Float64Array.from(baseline).sort());
  const random = seededRandom(seed);
  const bufB = new Float64Array(baseline.length);
  const bufC = new Float64Array(candidate.length);
  const ratios = [];
  for (let i = 0; i < resamples; i++) {
    const r =
      sortedMedian(resample(candidate, random, bufC).sort()) / sortedMedian(resample(baseline, random, bufB).sort());
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
 * bootstrapCI(xs, median) on the fast path (same resamples for the same seed).
 * @param {number[]} xs
 * @param {{ level?: number, resamples?: number, seed?: number }} [opts]
 */
export function bootstrapMedianCI(xs, { level = 0.95, resamples = DEFAULT_RESAMPLES, seed = DEFAULT_SEED } = {}) {
  if (xs.length === 0) return { low: NaN, high: NaN };
  const random = seededRandom(seed);
  const buf = new Float64Array(xs.length);
  const stats = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) stats[i] = sortedMedian(resample(xs, random, buf).sort());
  return percentileInterval(stats, level);
}
