// Two sample sets compared: the statistics of one comparison before it is judged (./decide.js gives it its
// outcome against the run's other comparisons). Ratio of medians with a bootstrap interval, Mann-Whitney
// p-value, Cliff's delta, and what the samples could detect.
import { cliffsDelta, detectableWithinRun, mannWhitneyU, ratioOfMedians } from '../stats/index.js';

/**
 * @typedef {{
 *   better: 'higher' | 'lower', ratio: { ratio: number, low: number, high: number }, p: number,
 *   cliffsDelta: number, magnitude: 'negligible' | 'small' | 'medium' | 'large', worse: number,
 *   significant: boolean, testable: boolean, detectable: import('../stats/detectable.js').Detectable,
 * }} PairStats
 * `worse` is the change in cost, + worse (costChange of ../model/change.js: half the throughput = +1).
 * `significant` here is this pair alone (p < 0.05 and the interval excludes 1); a reading replaces it by
 * the test after the run's false-alarm control (./decide.js). `testable` is false when the samples are too
 * few for any p below 0.05 (3 vs 3: the exact Mann-Whitney p cannot go below 0.1).
 */

/**
 * The smallest two-sided p-value the exact Mann-Whitney test can reach with n and m samples: both
 * orderings in which one side lies wholly above the other, out of all C(n+m, n) orderings.
 * @param {number} n @param {number} m
 */
export function smallestMannWhitneyP(n, m) {
  let orderings = 1;
  for (let i = 1; i <= Math.min(n, m); i++) orderings = (orderings * (n + m - i + 1)) / i;
  return Math.min(1, 2 / orderings);
}

/**
 * One candidate's samples against a baseline's.
 * @param {number[]} baseline @param {number[]} candidate @param {'higher' | 'lower'} better
 * @param {{ seed?: number, resamples?: number, alpha?: number }} [opts] the bootstrap's (readings use the
 *   defaults), and the level the detectable change is computed at (default 0.05; a reading passes the
 *   level its false-alarm control gives a comparison that changed alone, 0.05 over the family's size)
 * @returns {PairStats}
 */
export function compareSampleSets(baseline, candidate, better, opts = {}) {
  const ratio = ratioOfMedians(baseline, candidate, { seed: opts.seed, resamples: opts.resamples });
  const { p } = mannWhitneyU(candidate, baseline);
  const { delta, magnitude } = cliffsDelta(candidate, baseline);
  return {
    better,
    ratio,
    p,
    cliffsDelta: delta,
    magnitude,
    worse: better === 'lower' ? ratio.ratio - 1 : 1 / ratio.ratio - 1,
    significant: p < 0.05 && (ratio.low > 1 || ratio.high < 1),
    testable: smallestMannWhitneyP(candidate.length, baseline.length) < 0.05,
    detectable: detectableWithinRun(baseline, candidate, {
      alpha: opts.alpha ?? 0.05,
      smallestP: smallestMannWhitneyP,
    }),
  };
}
