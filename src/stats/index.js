// The statistics dind-bench reports, in one place. See each module for the method and why.
import { bootstrapMedianCI } from './bootstrap.js';
import { median } from './median.js';

export { median, medianOfSorted, quantileOfSorted } from './median.js';
export { bootstrapCI, bootstrapMedianCI, ratioOfMedians, DEFAULT_RESAMPLES, DEFAULT_SEED } from './bootstrap.js';
export { mannWhitneyU } from './mann-whitney.js';
export { cliffsDelta } from './cliffs-delta.js';
export { seededRandom, normalDeviate } from './random.js';

/**
 * The median of one sample set with its 95% bootstrap interval.
 * @param {number[]} samples
 * @param {{ seed?: number, resamples?: number }} [opts]
 * @returns {{ n: number, median: number, low: number, high: number }}
 */
export function summarize(samples, { seed, resamples } = {}) {
  return { n: samples.length, median: median(samples), ...bootstrapMedianCI(samples, { seed, resamples }) };
}
export {
  DEFAULT_POWER,
  detectableAgainstHistory,
  detectableWithinRun,
  historyDetectable,
  logSd,
  tQuantile,
} from './detectable.js';
