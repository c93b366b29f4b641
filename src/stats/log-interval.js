// The interval a decision is made on: the ratio of the two sides' geometric means (candidate / baseline),
// with a Welch t interval on log values at the level the reading's false-alarm control gives the decision.
//
// Why this and not the ratio of medians with a bootstrap interval and the exact Mann-Whitney test (which
// every described metric still gets): with 5 samples a side the exact test cannot go below p = 0.008, and a
// percentile bootstrap of 5 values cannot reach the levels a family of decisions asks (1 - 0.05 / m), so
// the quick run could decide only what was enormous, and its printed 95% interval disagreed with the
// outcome beside it. On log values the costs measured here (times, throughputs) are close to normal and a
// change is a ratio, as it is read; Welch's t needs no equal spreads (DinD is often noisier than Docker)
// and reaches any level at 5 samples a side, with an interval that is exactly the one the outcome is read
// from. bench/eval/decisions.js measures its power and its false decisions on recorded noise
// (docs/method.md, "Decisions"). An outlier widens the interval instead of moving a rank: the decision
// then waits for more samples, it does not flip.
import { tQuantile } from './detectable.js';

/**
 * @typedef {{ ratio: number, low: number, high: number, df: number, se: number, level: number }} LogInterval
 * ratio: exp(mean log candidate - mean log baseline); low/high: the interval of that ratio at `level`
 * (two-sided); se and df: Welch's, on the log scale.
 */

/**
 * @param {number[]} baseline @param {number[]} candidate positive values, at least 2 a side
 * @param {number} level two-sided coverage, e.g. 0.99
 * @returns {LogInterval | null} null when a value is not positive or a side has fewer than 2 values
 */
export function logRatioInterval(baseline, candidate, level) {
  if (baseline.length < 2 || candidate.length < 2) return null;
  if (![...baseline, ...candidate].every((x) => Number.isFinite(x) && x > 0)) return null;
  const a = moments(baseline.map(Math.log));
  const b = moments(candidate.map(Math.log));
  const va = a.variance / baseline.length;
  const vb = b.variance / candidate.length;
  const se = Math.sqrt(va + vb);
  const diff = b.mean - a.mean;
  // Two constant sides: the difference is exact (a deterministic metric).
  if (se === 0) return { ratio: Math.exp(diff), low: Math.exp(diff), high: Math.exp(diff), df: Infinity, se, level };
  // Welch-Satterthwaite degrees of freedom.
  const df = (va + vb) ** 2 / (va ** 2 / (baseline.length - 1) + vb ** 2 / (candidate.length - 1));
  const half = tQuantile(1 - (1 - level) / 2, df) * se;
  return { ratio: Math.exp(diff), low: Math.exp(diff - half), high: Math.exp(diff + half), df, se, level };
}

/** @param {number[]} xs */
function moments(xs) {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
  return { mean, variance };
}
