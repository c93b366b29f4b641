// The verdict rule before issue 21 (src/stats/verdicts.js as of 0.1.0: a two-sided prediction test on run
// medians at alpha 0.005 and a 5% minimum change), kept unchanged so the evaluation can show what the new
// rule changed. Not used by dind-bench itself. Its rule and judge() are here; the prediction test and the
// engine-change wording come from src/stats/verdicts.js, which still holds them unchanged (one copy).
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
import { num as fmt, pExact as formatP, pct1, signedPct } from '../../src/model/numbers.js';
import { median } from '../../src/stats/median.js';
import { engineChange, predictionTest } from '../../src/stats/verdicts.js';

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
