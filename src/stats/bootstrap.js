// Percentile bootstrap intervals. No maintained npm package offers a seeded, two-sample bootstrap of a
// ratio, so the loop is here; resampling and quantiles use simple-statistics.
import { quantileSorted, sampleWithReplacement } from 'simple-statistics';
import { median } from './median.js';
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
  for (let i = 0; i < resamples; i++) stats[i] = stat(sampleWithReplacement(xs, xs.length, random));
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
export function ratioOfMedians(baseline, candidate, { level = 0.95, resamples = DEFAULT_RESAMPLES, seed = DEFAULT_SEED } = {}) {
  const ratio = median(candidate) / median(baseline);
  if (baseline.length === 0 || candidate.length === 0) return { ratio: NaN, low: NaN, high: NaN };
  const random = seededRandom(seed);
  const ratios = [];
  for (let i = 0; i < resamples; i++) {
    const r = median(sampleWithReplacement(candidate, candidate.length, random)) / median(sampleWithReplacement(baseline, baseline.length, random));
    // A zero baseline median in a resample makes the ratio undefined; such resamples carry no information.
    if (Number.isFinite(r)) ratios.push(r);
  }
  if (ratios.length === 0) return { ratio, low: NaN, high: NaN };
  return { ratio, ...percentileInterval(ratios, level) };
}

/** @param {number[]} values @param {number} level */
function percentileInterval(values, level) {
  const sorted = values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}
