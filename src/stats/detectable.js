// Minimum detectable change: the smallest relative change a comparison would flag (two-sided level alpha)
// with a given power, from the spread of the samples at hand, and how many iterations would make a given
// change (5%) detectable. This is what tells a team whether its runners are quiet enough to gate an
// Engine upgrade on: "this runner can see 3% in sysbench cpu, but only 40% in fileio".
//
// Method (a normal approximation on log values, so changes are ratios as regressions are read):
// - Within a run (two sides compared by Mann-Whitney): MDC = (t[1-alpha/2] + t[power]) * sqrt(s1^2/n1 +
//   s2^2/n2) / sqrt(ARE), with s the standard deviation of each side's log samples, t on n1 + n2 - 2
//   degrees of freedom, and ARE = 3/pi, Mann-Whitney's efficiency relative to the t-test on normal data.
//   Below the sample counts at which the exact test can reach alpha at all (3 vs 3 for 0.05) nothing is
//   detectable, whatever the spread.
// - Against history (one new run against k past runs, the verdict's test of this run alone: one-sided, at
//   the share of alpha the verdict gives a single run, SPAN_WEIGHTS[0]): MDC = (t[1 - alpha * w1] +
//   t[power]) * s * sqrt(1 + 1/k) on k - 1 degrees of freedom, s the spread of the past log medians (never
//   below the new run's own level error), and never below the rule's minChange. A change that lasts is
//   also caught later by the verdict's spans of 2-4 runs; this is what one run can show.
//   More iterations shrink only the part of s that is the medians' sampling error; what runs differ by
//   beyond that stays, so past some point only a quieter runner helps (then: null iterations).
// Power 0.8 is the usual convention for a minimum detectable effect.
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { probit } from 'simple-statistics';
import { median } from './median.js';
import { SPAN_WEIGHTS, pastWindow, predictionScale } from './verdicts.js';

export const DEFAULT_POWER = 0.8;
const ARE_MANN_WHITNEY = 3 / Math.PI;
/** Asymptotic standard error of a median is this times sd / sqrt(n) for normal data (sqrt(pi/2)). */
const MEDIAN_SE_FACTOR = Math.sqrt(Math.PI / 2);
/** The same for the Hodges-Lehmann pseudo-median, the verdict's run level (sqrt(pi/3)). */
const LEVEL_SE_FACTOR = Math.sqrt(Math.PI / 3);
/** Iteration counts above this are reported as not reachable. */
export const MAX_ITERATIONS = 10_000;

/**
 * Quantile of Student's t with df degrees of freedom (bisection on the CDF; the normal for df = Infinity).
 * @param {number} p in (0, 1) @param {number} df > 0
 */
export function tQuantile(p, df) {
  if (!Number.isFinite(df)) return probit(p);
  const key = `${p}/${df}`;
  let q = quantiles.get(key);
  if (q === undefined) quantiles.set(key, (q = bisectT(p, df)));
  return q;
}

/** tQuantile is called with few distinct arguments, many times (each comparison of a report). */
const quantiles = new Map();

/** @param {number} p @param {number} df */
function bisectT(p, df) {
  let lo = -1e3;
  let hi = 1e3;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Standard deviation of the logs of positive samples; NaN when fewer than 2 or any is not positive.
 * @param {number[]} xs
 */
export function logSd(xs) {
  if (xs.length < 2 || xs.some((x) => !(x > 0))) return NaN;
  const logs = xs.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  return Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
}

/**
 * @typedef {{ change: number | null, iterationsFor5Pct: number | null, alpha: number, power: number, why: string }} Detectable
 * `change` is relative (0.12 = a 12% change is detectable), null when none is; `iterationsFor5Pct` the
 * iterations per side (within a run) or per run (against history) that would make 5% detectable, null
 * when more iterations cannot.
 */

/**
 * Within a run: what two sides of n1 and n2 samples can detect.
 * @param {number[]} a @param {number[]} b
 * @param {{ alpha?: number, power?: number, smallestP: (n: number, m: number) => number }} opts
 *   smallestP: the smallest p-value the test can reach with n and m samples (exact Mann-Whitney)
 * @returns {Detectable}
 */
export function detectableWithinRun(a, b, { alpha = 0.05, power = DEFAULT_POWER, smallestP }) {
  const s1 = logSd(a);
  const s2 = logSd(b);
  const base = { alpha, power };
  if (!Number.isFinite(s1) || !Number.isFinite(s2)) {
    return { ...base, change: null, iterationsFor5Pct: null, why: 'needs at least 2 positive samples a side' };
  }
  const spread = Math.sqrt((s1 ** 2 + s2 ** 2) / 2);
  const mdcLog = (n1 = a.length, n2 = b.length) =>
    ((tQuantile(1 - alpha / 2, n1 + n2 - 2) + tQuantile(power, n1 + n2 - 2)) * Math.sqrt(s1 ** 2 / n1 + s2 ** 2 / n2)) /
    Math.sqrt(ARE_MANN_WHITNEY);
  let needed = null;
  for (let n = 2; n <= MAX_ITERATIONS; n = n < 64 ? n + 1 : Math.ceil(n * 1.05)) {
    if (smallestP(n, n) >= alpha) continue;
    const m =
      ((tQuantile(1 - alpha / 2, 2 * n - 2) + tQuantile(power, 2 * n - 2)) * spread * Math.sqrt(2 / n)) /
      Math.sqrt(ARE_MANN_WHITNEY);
    if (m <= Math.log(1.05)) {
      needed = n;
      break;
    }
  }
  if (smallestP(a.length, b.length) >= alpha) {
    return {
      ...base,
      change: null,
      iterationsFor5Pct: needed,
      why: `no test at p < ${alpha} is possible with ${a.length} vs ${b.length} samples`,
    };
  }
  return {
    ...base,
    change: Math.expm1(mdcLog()),
    iterationsFor5Pct: needed,
    why: `from this run's spread (log sd ${s1.toFixed(3)} and ${s2.toFixed(3)})`,
  };
}

/**
 * Against history: what one new run can be judged against k past runs' medians.
 * @param {number[]} pastMedians medians of the past runs (k >= 2)
 * @param {number[]} samples this run's samples
 * @param {{ alpha: number, minChange: number, power?: number, pastSamples?: number }} rule
 *   pastSamples: typical samples per past run (for the share of the spread that is sampling error)
 * @returns {Detectable}
 */
export function detectableAgainstHistory(
  pastMedians,
  samples,
  { alpha, minChange, power = DEFAULT_POWER, pastSamples = samples.length },
) {
  const base = { alpha, power };
  const k = pastMedians.length;
  const between = logSd(pastMedians);
  const within = logSd(samples);
  if (k < 2 || !Number.isFinite(between)) {
    return {
      ...base,
      change: null,
      iterationsFor5Pct: null,
      why: `needs at least 2 past runs with positive medians (has ${k})`,
    };
  }
  const factor = (tQuantile(1 - alpha * SPAN_WEIGHTS[0], k - 1) + tQuantile(power, k - 1)) * Math.sqrt(1 + 1 / k);
  // As the verdict's scale: the past spread, plus what the new run's level error exceeds a past run's
  // (fewer samples than the history's runs had), never below its own error.
  const ownError = Number.isFinite(within) ? (LEVEL_SE_FACTOR * within) / Math.sqrt(samples.length) : 0;
  const pastError = Number.isFinite(within) ? (LEVEL_SE_FACTOR * within) / Math.sqrt(pastSamples) : 0;
  const scale = predictionScale(between, ownError, pastError);
  const change = Math.max(minChange, Math.expm1(factor * scale));
  // Split the past spread into sampling error of a median (shrinks with iterations) and the rest.
  const samplingVar = Number.isFinite(within) ? (MEDIAN_SE_FACTOR * within) ** 2 / pastSamples : 0;
  const runToRun = Math.max(0, between ** 2 - samplingVar);
  const room = (Math.log(1.05) / factor) ** 2 - runToRun;
  let needed = null;
  if (room > 0) {
    const n = samplingVar > 0 ? Math.ceil((MEDIAN_SE_FACTOR * within) ** 2 / room) : 1;
    needed = n <= MAX_ITERATIONS ? n : null;
  }
  const why =
    needed === null
      ? `runs differ by more than 5% allows (log sd of past medians ${between.toFixed(3)} over ${k} runs): more iterations cannot reach 5%; a quieter runner or more past runs can`
      : `from the spread of ${k} past run medians (log sd ${between.toFixed(3)})`;
  return { ...base, change, iterationsFor5Pct: needed, why };
}

/**
 * What a series' history lets a run like this one detect, from the past runs the verdict itself reads
 * (pastWindow): `compare --history` prints it beside each verdict and the site shows it, so a team sees
 * which series can never show 10% on its runners (`change` null, with `why`, below two past runs).
 * @param {Array<{ samples: number[] }>} past oldest first @param {number[]} samples this run's
 * @param {import('./verdicts.js').Rule} rule
 * @returns {Detectable}
 */
export function historyDetectable(past, samples, rule) {
  const usable = pastWindow(past, rule);
  return detectableAgainstHistory(
    usable.map((p) => median(p.samples)),
    samples,
    {
      alpha: rule.alpha,
      minChange: rule.minChange,
      pastSamples: usable.length ? median(usable.map((p) => p.samples.length)) : samples.length,
    },
  );
}
