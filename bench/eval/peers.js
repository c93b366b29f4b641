// The peers of dind-bench's verdict against history, reimplemented from their documentation and source for
// the multi-run evaluation (bench/eval/sequences.js). Each sees one value per run, the run's median (the
// most favourable single value to feed them); dind-bench sees the samples.
//
// - Bencher (https://bencher.dev/docs/explanation/thresholds/): a Threshold's Test computes a Boundary
//   Limit from the historical metrics and alerts when the new metric is above the Upper Boundary Limit
//   (below the Lower one for a throughput-like measure). Its source (bencherdev/bencher,
//   lib/bencher_boundary/src/boundary.rs and limits/mod.rs) gives the formulas implemented here:
//   * t_test: mean and standard deviation of the historical values (the population form, dividing by n),
//     limit = inverse CDF of Student's t with location mean, scale sd and n - 1 degrees of freedom at the
//     boundary: mean + t[boundary; n-1] * sd upper, mean - t[boundary; n-1] * sd lower. Boundary 0.99 in
//     the docs' example (`--threshold-test t_test --threshold-upper-boundary 0.99`).
//   * percentage: limit = mean * (1 + boundary) upper, mean * (1 - boundary) lower (boundary 0.1 = 10%).
//   History: every earlier run (no --threshold-max-sample-size), as the evaluation's histories are short.
// - github-action-benchmark (https://github.com/benchmark-action/github-action-benchmark, README, inputs
//   `alert-threshold`, default "200%", and `fail-threshold`): compares each benchmark with the previous
//   run's value only; ratio = current / previous for smallerIsBetter (previous / current for
//   biggerIsBetter), an alert when ratio > threshold. 110% here, as in the measurement.
// - Apache Otava: bench/eval/otava.js (the real package, run in a throwaway virtual env).
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { median } from '../../src/stats/index.js';

/**
 * A rule with one score per judged run (higher = more alarming) that fires when score > param: the
 * threshold sweep needs the scores once.
 * @param {string} name @param {number} defaultParam @param {number[]} params
 * @param {(pastMedians: number[], value: number, better: 'higher' | 'lower') => number} score
 * @returns {import('./sequences.js').SequenceRule}
 */
function scoreRule(name, defaultParam, params, score) {
  return {
    name,
    defaultParam,
    params: [...new Set([defaultParam, ...params])].sort((a, b) => a - b),
    looser: 'lower',
    alarms(past, judged, better, ps) {
      const medians = past.map((r) => median(r));
      const scores = judged.map((run) => {
        const value = median(run);
        const s = score(medians, value, better);
        medians.push(value);
        return s;
      });
      return ps.map((p) => scores.map((s) => s > p));
    },
  };
}

/** @param {number} lo @param {number} hi @param {number} n log-spaced values from lo to hi */
const logGrid = (lo, hi, n) => Array.from({ length: n }, (_, i) => lo * (hi / lo) ** (i / (n - 1)));

/** Mean and population standard deviation, as Bencher computes them. @param {number[]} xs */
function meanSd(xs) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, sd: Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length) };
}

/**
 * Bencher's t_test threshold: fires when the new value is beyond the boundary's percentile of Student's t
 * (location mean, scale the population sd, n - 1 df) in the bad direction. Score: that percentile.
 * @param {number} boundary e.g. 0.99
 */
export function bencherTTest(boundary = 0.99) {
  // percentiles 0.5 .. 1 - 1e-7, denser near 1
  const params = [...logGrid(1e-7, 0.5, 160).map((q) => 1 - q)];
  return scoreRule(`Bencher t_test, boundary ${boundary}`, boundary, params, (medians, value, better) => {
    const { mean, sd } = meanSd(medians);
    // Bencher computes no limit from a constant history (its standard deviation must be non-zero)
    if (!(sd > 0) || medians.length < 2) return 0;
    const t = ((better === 'lower' ? 1 : -1) * (value - mean)) / sd;
    return tCdf(t, medians.length - 1);
  });
}

/**
 * Bencher's percentage threshold: fires when the new value is more than `boundary` (0.1 = 10%) beyond the
 * historical mean in the bad direction. Score: the relative distance from the mean.
 * @param {number} boundary
 */
export function bencherPercentage(boundary = 0.1) {
  return scoreRule(
    `Bencher percentage, boundary ${boundary}`,
    boundary,
    logGrid(0.001, 2, 160),
    (medians, value, better) => {
      const mean = medians.reduce((a, b) => a + b, 0) / medians.length;
      return better === 'lower' ? value / mean - 1 : 1 - value / mean;
    },
  );
}

/**
 * github-action-benchmark: the ratio to the previous run's value, an alert above `threshold` (1.1 = 110%).
 * @param {number} threshold
 */
export function githubActionBenchmark(threshold = 1.1) {
  return scoreRule(
    `github-action-benchmark, alert-threshold ${Math.round(threshold * 100)}%`,
    threshold,
    logGrid(1.001, 4, 160),
    (medians, value, better) => {
      const prev = medians[medians.length - 1];
      return better === 'lower' ? value / prev : prev / value;
    },
  );
}
