// The detectors compared by the evaluation, each answering "is the newest run a regression?".
import { judge, DEFAULT_RULE, DEFAULT_STEPS } from '../../src/stats/verdicts.js';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { mannWhitneyU, median } from '../../src/stats/index.js';

/**
 * @typedef {{ name: string, detect: (past: number[][], candidate: number[], better: 'higher' | 'lower') => boolean }} Detector
 */

/**
 * dind-bench's default steps with a cache of run levels: the evaluation judges the same past runs many
 * times (every detector, every injected shift); verdicts are the same as without it.
 * @type {import('../../src/stats/verdicts.js').Steps}
 */
export const EVAL_STEPS = { ...DEFAULT_STEPS, cache: new WeakMap() };

/** dind-bench's verdict with its default rule. @type {Detector} */
export const dindBench = {
  name: 'dind-bench (default rule)',
  detect: (past, candidate, better) =>
    judge(
      past.map((samples) => ({ samples })),
      { samples: candidate },
      better,
      DEFAULT_RULE,
      EVAL_STEPS,
    ).status === 'regression',
};

/**
 * github-action-benchmark's rule: one value per run compared with the single previous value; an alert when
 * the ratio in the bad direction exceeds the threshold (its `alert-threshold`, 200% by default). The value
 * fed to it is the run's median, the most favourable input for it (users often feed a mean or one sample).
 * @param {number} threshold e.g. 1.5 for 150%
 * @returns {Detector}
 */
export function singleValueRatio(threshold) {
  return {
    name: `github-action-benchmark rule, ${Math.round(threshold * 100)}%`,
    detect(past, candidate, better) {
      const prev = median(past[past.length - 1]);
      const now = median(candidate);
      const ratio = better === 'lower' ? now / prev : prev / now;
      return ratio > threshold;
    },
  };
}

/**
 * The tempting shortcut the verdicts avoid: pool the samples of the last 5 runs and run Mann-Whitney against
 * the new run (p < 0.01, worse direction). Shown to make the cost of ignoring between-run noise visible.
 * @type {Detector}
 */
export const pooledMannWhitney = {
  name: 'pooled samples + Mann-Whitney (naive)',
  detect(past, candidate, better) {
    const pooled = past.slice(-5).flat();
    const { p } = mannWhitneyU(candidate, pooled);
    const worse = better === 'lower' ? median(candidate) > median(pooled) : median(candidate) < median(pooled);
    return p < 0.01 && worse;
  },
};

/**
 * The practical limit the verdict is measured against: a t-test on run medians with the noise estimated
 * from the same past runs (Student-t prediction on log medians of the window, the verdict's alpha, worse
 * direction), with no floor, no outlier handling and no minimum change. What a test that estimates the
 * noise from the history can do; the verdict gives some of it up for robustness and the practical threshold.
 * @type {Detector}
 */
export const medianTLimit = {
  name: 't-test on run medians (practical limit)',
  detect: (past, candidate, better) => limitP(past, candidate, better) < DEFAULT_RULE.alpha,
};

/**
 * The practical limit's p-value when the new run moved in the worse direction, else 1: the evaluation
 * also calibrates the limit (a stricter alpha where its own false alarms exceed 1%) from these.
 * @param {number[][]} past @param {number[]} candidate @param {'higher' | 'lower'} better
 */
export function limitP(past, candidate, better) {
  const logs = past.slice(-DEFAULT_RULE.window).map((xs) => Math.log(median(xs)));
  const k = logs.length;
  const mean = logs.reduce((a, b) => a + b, 0) / k;
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (k - 1));
  const diff = Math.log(median(candidate)) - mean;
  const t = diff / (sd * Math.sqrt(1 + 1 / k));
  const p = 2 * tCdf(-Math.abs(t), k - 1);
  const worse = better === 'lower' ? diff > 0 : diff < 0;
  // NaN (a series of zeros: no logarithm) is never a detection.
  return worse && Number.isFinite(p) ? p : 1;
}

export const DETECTORS = [
  dindBench,
  medianTLimit,
  pooledMannWhitney,
  singleValueRatio(1.1),
  singleValueRatio(1.5),
  singleValueRatio(2),
];
export const PAST_RUNS = DEFAULT_RULE.window;
