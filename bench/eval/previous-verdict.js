// The verdict rule before issue 21 (src/stats/verdicts.js as of 0.1.0: a two-sided prediction test on run
// medians at alpha 0.005 and a 5% minimum change), kept unchanged so the evaluation can show what the new
// rule changed. Not used by dind-bench itself.
//
// Verdicts against history: did this run's metric move, compared with the same series' own past?
// The one rule for "regression": `compare --history`, the overview `publish` writes for the site, and
// the site itself all show what judge() decides, with the names in VERDICTS. Change the decision here.
//
// Why not pool past samples and run Mann-Whitney against the new run: runs on different days differ by
// more than samples within one run (machine, neighbours, thermal state), so a pooled test flags that
// ordinary between-run drift as a change. Instead each past run contributes one number, its median, and
// the new run's median is judged against the spread of those medians, which already contains both the
// between-run noise and the sampling error of a median. Concretely: a Student-t prediction test on log
// medians (the new value vs the mean of k past values, scale s * sqrt(1 + 1/k), k - 1 degrees of freedom),
// after setting aside a few past runs that are far outliers (beyond 5 robust standard deviations, from the
// median absolute deviation; at most a tenth of them), with the scale widened by what the new run's median
// adds in sampling error beyond a past run's (a quick run of 5 samples against a history of 20: variances
// add) and never below the new run's own sampling error of its median (both from the samples' order
// statistics: a run much noisier than its history cannot be judged sharper than its own samples allow), and a practical threshold: a verdict needs both p < alpha and a change of at least
// minChange in the metric's bad (or good) direction. Logs make the test about ratios, which is how
// regressions are read ("8% slower"), and tame right-skewed timings.
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { num as fmt, pExact as formatP, pct1, signedPct } from '../../src/model/numbers.js';
import { median } from '../../src/stats/median.js';

/**
 * @typedef {{ alpha: number, minChange: number, minRuns: number, minSamples: number, window: number }} Rule
 * @typedef {{ samples: number[], engines?: { outer: string, inner: string | null } | null, runId?: string, time?: string }} Point
 * @typedef {{
 *   status: typeof VERDICTS[number],
 *   reason: string, change: number | null, p: number | null, pastRuns: number,
 *   median: number, pastMedian: number | null, engineChange: string | null,
 * }} Verdict
 * `change` is relative, signed towards worse: +0.1 means 10% worse for the metric's direction.
 */

/** Every verdict, worst news first: the words every report and the site show. */
export const VERDICTS = Object.freeze(
  /** @type {const} */ (['regression', 'improvement', 'insufficient data', 'no change', 'baseline']),
);

export const DEFAULT_RULE = Object.freeze({ alpha: 0.005, minChange: 0.05, minRuns: 5, minSamples: 5, window: 30 });

/**
 * The earlier runs a verdict reads: those with enough samples for the rule, the newest `window` of them.
 * `compare --history` and the overview `publish` writes both select with this, so they judge alike.
 * @template {{ samples: number[] }} P
 * @param {P[]} past oldest first @param {Rule} [rule]
 * @returns {P[]}
 */
export const pastWindow = (past, rule = DEFAULT_RULE) =>
  past.filter((p) => p.samples.length >= rule.minSamples).slice(-rule.window);

/**
 * @param {Point[]} past the series' earlier runs, oldest first (the candidate run itself excluded)
 * @param {Point} candidate this run
 * @param {'higher' | 'lower'} better
 * @param {Rule} [rule]
 * @returns {Verdict}
 */
export function judge(past, candidate, better, rule = DEFAULT_RULE) {
  const usable = pastWindow(past, rule);
  const m = median(candidate.samples);
  const base = {
    change: null,
    p: null,
    pastRuns: usable.length,
    median: m,
    pastMedian: null,
    engineChange: engineChange(usable[0], candidate),
  };
  if (candidate.samples.length < rule.minSamples) {
    return {
      ...base,
      status: 'insufficient data',
      reason: `this run has ${candidate.samples.length} samples; a verdict needs at least ${rule.minSamples}`,
    };
  }
  if (usable.length === 0) {
    return { ...base, status: 'baseline', reason: 'first run of this series: accepted as the baseline' };
  }
  const medians = usable.map((p) => median(p.samples));
  const pastMedian = median(medians);
  if (usable.length < rule.minRuns) {
    return {
      ...base,
      pastMedian,
      status: 'insufficient data',
      reason: `${usable.length} earlier run(s) with at least ${rule.minSamples} samples; a verdict needs ${rule.minRuns}`,
    };
  }
  const { p, ratio } = predictionTest(
    medians,
    m,
    candidate.samples,
    usable.map((x) => x.samples),
  );
  const change = better === 'lower' ? ratio - 1 : 1 - ratio;
  const significant = p < rule.alpha;
  const status =
    significant && change >= rule.minChange
      ? 'regression'
      : significant && change <= -rule.minChange
        ? 'improvement'
        : 'no change';
  const pct = `${signedPct(change)} ${change >= 0 ? 'worse' : 'better'}`;
  const why =
    status !== 'no change'
      ? `p = ${formatP(p)} < ${rule.alpha} and ${pct1(change)} >= ${(rule.minChange * 100).toFixed(0)}%`
      : significant
        ? `significant (p = ${formatP(p)}) but under the ${(rule.minChange * 100).toFixed(0)}% threshold`
        : `p = ${formatP(p)}, within the past runs' spread`;
  const reason = `median ${fmt(m)} vs ${fmt(pastMedian)} over ${usable.length} runs (${pct}): ${why}`;
  return {
    ...base,
    pastMedian,
    change,
    p,
    status,
    reason: base.engineChange ? `${reason}; ${base.engineChange}` : reason,
  };
}

/**
 * Two-sided p-value of `value` as a new draw from the distribution of `pastMedians`, and the ratio of
 * `value` to their geometric mean. Log scale when every value is positive (the usual case), else linear.
 * @param {number[]} pastMedians at least 2
 * @param {number} value the new run's median
 * @param {number[]} [samples] the new run's samples, for its median's sampling error
 * @param {number[][]} [pastSamples] the past runs' samples, for theirs
 */
export function predictionTest(pastMedians, value, samples = [], pastSamples = []) {
  const useLog = value > 0 && pastMedians.every((x) => x > 0) && samples.every((x) => x > 0);
  const tr = useLog ? Math.log : (/** @type {number} */ x) => x;
  const xs = withoutFarOutliers(pastMedians.map(tr));
  const k = xs.length;
  const mean = xs.reduce((s, x) => s + x, 0) / k;
  const sdPast = k > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (k - 1)) : 0;
  const sd = predictionScale(sdPast, medianStandardError(samples.map(tr)), typicalMedianError(pastSamples, tr));
  const ratio = useLog ? Math.exp(tr(value) - mean) : value / mean;
  const diff = tr(value) - mean;
  // A perfectly constant history (a deterministic metric): any difference at all is certain.
  if (sd === 0 || k < 2) return { p: diff === 0 ? 1 : 0, ratio };
  const t = diff / (sd * Math.sqrt(1 + 1 / k));
  return { p: Math.min(1, 2 * tCdf(-Math.abs(t), k - 1)), ratio };
}

/**
 * The prediction test's scale: the spread of the past medians, which already holds a past run's own
 * sampling error of its median, plus what the new run's median adds beyond that (fewer or noisier samples
 * than the history's runs had), and never below the new run's own error.
 * @param {number} sdPast @param {number} seNew @param {number} sePast a typical past run's median error
 */
export function predictionScale(sdPast, seNew, sePast) {
  return Math.max(Math.sqrt(sdPast ** 2 + Math.max(0, seNew ** 2 - sePast ** 2)), seNew);
}

/**
 * A typical past run's sampling error of its median: the median over runs of medianStandardError, on the
 * test's scale (tr); runs it cannot be computed for (a zero on the log scale) are left out; 0 without any.
 * @param {number[][]} runs @param {(x: number) => number} tr
 */
export function typicalMedianError(runs, tr) {
  const errors = runs.map((xs) => medianStandardError(xs.map(tr))).filter(Number.isFinite);
  return errors.length ? median(errors) : 0;
}

/**
 * Drops values more than 5 robust standard deviations (1.4826 x MAD) from the median, but never more than a
 * tenth of them: one past run on a machine that was busy must not widen the yardstick for every later run,
 * while a series that really has two levels (a minority cluster) keeps both. Keeps all when MAD is 0.
 * @param {number[]} xs
 */
function withoutFarOutliers(xs) {
  const center = median(xs);
  const mad = 1.4826 * median(xs.map((x) => Math.abs(x - center)));
  if (!(mad > 0)) return xs;
  const far = xs.filter((x) => Math.abs(x - center) > 5 * mad);
  return far.length > 0 && far.length <= Math.floor(xs.length / 10)
    ? xs.filter((x) => Math.abs(x - center) <= 5 * mad)
    : xs;
}

/**
 * Standard error of a sample's median without assuming a distribution: half the width of the ~95%
 * order-statistic interval of the median (ranks n/2 -+ 0.98 sqrt(n), symmetric), divided by 1.96. 0 below 5 values.
 * @param {number[]} xs
 */
export function medianStandardError(xs) {
  const n = xs.length;
  if (n < 5) return 0;
  const s = [...xs].sort((a, b) => a - b);
  // Symmetric ranks (0-based lo and n-1-lo): the former ceil() on the upper rank took one order statistic
  // more at the top (the maximum of 10 samples), which overstated the error and cost power (docs/evaluation.md).
  const lo = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  return (s[n - 1 - lo] - s[lo]) / (2 * 1.96);
}

/**
 * "changed with Engine 20.10 -> 26.1" when the engine that ran the benchmark differs between the oldest run
 * the verdict compares against and this run (the inner engine for DinD, else the outer one).
 * @param {Point | undefined} baseline @param {Point} candidate
 */
export function engineChange(baseline, candidate) {
  if (!baseline?.engines || !candidate.engines) return null;
  const parts = [];
  const from = baseline.engines;
  const to = candidate.engines;
  if ((from.inner ?? null) !== (to.inner ?? null) && (from.inner || to.inner))
    parts.push(`Engine ${versions(from.inner, to.inner)}`);
  if (from.outer !== to.outer)
    parts.push(`${parts.length || from.inner || to.inner ? 'outer ' : ''}Engine ${versions(from.outer, to.outer)}`);
  return parts.length ? `changed with ${parts.join(', ')}` : null;
}

/**
 * "20.10.24+dfsg1", "26.1.5" -> "20.10 -> 26.1" (release lines); full versions when the lines are equal.
 * @param {string | null | undefined} a @param {string | null | undefined} b
 */
function versions(a, b) {
  const line = (/** @type {string | null | undefined} */ v) => (v ? (/^(\d+\.\d+)/.exec(v)?.[1] ?? v) : 'none');
  return line(a) !== line(b) ? `${line(a)} -> ${line(b)}` : `${a ?? 'none'} -> ${b ?? 'none'}`;
}
