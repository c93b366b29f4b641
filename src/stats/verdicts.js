// Verdicts against history: did this run's metric move, compared with the same series' own past?
// The one rule for "regression": `compare --history`, the overview `publish` writes for the site, and
// the site itself all show what judge() decides, with the names in VERDICTS. Change the decision here.
//
// Why not pool past samples and run Mann-Whitney against the new run: runs on different days differ by
// more than samples within one run (machine, neighbours, thermal state), so a pooled test flags that
// ordinary between-run drift as a change. Instead each run contributes one level, and the new run is judged
// against the spread of the past levels, which already holds both the between-run noise and a level's
// sampling error. The rule (issue 21; docs/method.md, measured in docs/evaluation.md):
// - A run's level is the Hodges-Lehmann pseudo-median of its log samples (the median of all pairwise
//   means: nearly as sharp as the mean on normal data, as robust as the median to a few outliers), with the
//   standard error of a 20%-trimmed mean. dind-bench has every run's samples, so it can use a sharper level
//   than a single median.
// - One-sided, in the bad direction: a "regression" verdict spends its whole alpha on getting worse (an
//   "improvement" is the same test the other way).
// - A change is looked for over spans of the newest runs (SPAN_WEIGHTS: up to 4; by default this run
//   alone): their mean level against the runs before them, a Student-t prediction test whose spread pools
//   the baseline levels' with the span's own (k + span - 2 degrees of freedom), never below what runs differ
//   by beyond their own level error plus this run's own (since issue 53), plus the baseline mean's error.
//   Alpha is split over the spans. This run alone is judged against the runs before the newest ones (up to
//   3) that had already moved worse together, so a regression missed once does not hide the next runs.
// - A few far outlier runs (beyond 5 robust standard deviations, at most a tenth) are set aside from the
//   baseline, and a verdict also needs a change of at least minChange (2%: below that, a significant
//   change on a very quiet series is reported as "no change", and says so).
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { num as fmt, pExact as formatP, pct1, signedPct } from '../model/numbers.js';
import { median } from './median.js';

/**
 * @typedef {{ alpha: number, minChange: number, minRuns: number, minSamples: number, window: number }} Rule
 * @typedef {{ samples: number[], engines?: { outer: string, inner: string | null } | null, runId?: string, time?: string }} Point
 * @typedef {{
 *   status: typeof VERDICTS[number],
 *   reason: string, change: number | null, p: number | null, pastRuns: number,
 *   median: number, pastMedian: number | null, engineChange: string | null,
 *   span?: number,
 * }} Verdict
 * `change` is relative, signed towards worse: +0.1 means 10% worse for the metric's direction; over the
 * newest `span` runs (1: this run alone; 2: this run and the one before it, ...) against the runs before
 * them. `p` is the test's p-value adjusted for the spans looked at (compared with alpha as it is).
 * @typedef {{
 *   spans: readonly number[], level: 'pseudo-median' | 'median', sided: 'one' | 'two', floor: 'noisier' | 'always' | 'hierarchical',
 *   cache?: WeakMap<number[], Map<string, any>>, aside?: { runs: number, p: number },
 * }} Steps
 * The rule's steps, for the evaluation's ablation (bench/eval/ablation.js); judge() uses DEFAULT_STEPS.
 * cache: the evaluation judges the same past runs many times; given a cache, a run's level is computed
 * once per samples array (which must not change afterwards). Verdicts are the same with or without it.
 * floor: a run's own level error bounds the scale from below only when it is clearly above the baseline's
 * typical one ('noisier', over NOISIER times), or always (the rule before issue 21).
 */

/** Every verdict, worst news first: the words every report and the site show. */
export const VERDICTS = Object.freeze(
  /** @type {const} */ (['regression', 'improvement', 'insufficient data', 'no change', 'baseline']),
);

/**
 * alpha spends the rate the verdict states, 1% of first judged runs pooled over the recorded noise
 * (docs/evaluation.md): DEFAULT_STEPS reach it at 0.0092-0.0105 on three seeds of 400 sequences a series
 * (bench/eval/history-explore.js), the lowest is the default. 0.00794 from issue 45 to 53, 0.002 before.
 */
export const DEFAULT_RULE = Object.freeze({ alpha: 0.0092, minChange: 0.02, minRuns: 5, minSamples: 5, window: 30 });

/**
 * How alpha is shared over the spans of the newest 1..4 runs: since issue 45, all of it to this run alone (a
 * first regressed run is caught only by its own share; docs/evaluation.md). judge() takes any split as
 * steps.spans, for the evaluation.
 */
export const SPAN_WEIGHTS = Object.freeze([1]);

/**
 * floor 'noisier' (the rule from issue 21 to 53, kept for the evaluation): a run's own level error bounds the
 * scale only when over this many times the baseline's typical one (with 10 samples the estimate alone passes
 * 1.5 times in about 10% of ordinary runs, 3 times in almost none).
 */
export const NOISIER = 3;

/**
 * Since issue 53 each run's own level error counts and the newest runs that had moved worse are set aside for
 * this run alone: at the same 1%, 18.4% of 10% regressions caught on the first regressed run and 35.7% within
 * 4, against 17.3% / 28.4% before and Bencher's 17.6% / 29.3% (docs/evaluation.md).
 * @type {Readonly<Steps>}
 */
export const DEFAULT_STEPS = Object.freeze({
  spans: SPAN_WEIGHTS,
  level: 'pseudo-median',
  sided: 'one',
  floor: 'hierarchical',
  aside: Object.freeze({ runs: 3, p: 0.2 }),
});

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
 * @param {Steps} [steps] the evaluation's ablation only
 * @returns {Verdict}
 */
export function judge(past, candidate, better, rule = DEFAULT_RULE, steps = DEFAULT_STEPS) {
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
  const medians = usable.map((p) => cached(steps, p.samples, 'median', () => median(p.samples)));
  const pastMedian = median(medians);
  if (usable.length < rule.minRuns) {
    return {
      ...base,
      pastMedian,
      status: 'insufficient data',
      reason: `${usable.length} earlier run(s) with at least ${rule.minSamples} samples; a verdict needs ${rule.minRuns}`,
    };
  }
  const levels = runLevels([...usable.map((p) => p.samples), candidate.samples], steps);
  const spans = spanStats(levels.levels, rule, steps);
  const sign = /** @type {1 | -1} */ (better === 'lower' ? 1 : -1);
  // This run alone is judged against the runs before the newest that had moved worse; longer spans as they are.
  const aside = steps.aside ? movedWorse(levels.levels, sign, rule, steps.aside, steps) : 0;
  const yardstick = [...levels.levels.slice(0, -1 - aside), levels.levels[levels.levels.length - 1]];
  const worseSpans = aside
    ? [spanStats(yardstick, rule, { ...steps, spans: steps.spans.slice(0, 1) })[0], ...spans.slice(1)]
    : spans;
  const worse = shiftTest(levels, sign, rule, steps, worseSpans);
  const plain = aside ? shiftTest(levels, sign, rule, steps, spans) : worse;
  const good = shiftTest(levels, /** @type {1 | -1} */ (-sign), rule, steps, spans);
  const regression = worse.strongest !== null && worse.strongest.p < rule.alpha;
  const improvement = !regression && good.strongest !== null && good.strongest.p < rule.alpha;
  const status = regression ? 'regression' : improvement ? 'improvement' : 'no change';
  // The numbers shown: the span that decided; otherwise this run alone against every earlier run.
  const alone = plain.alone.change >= 0 ? plain.alone : { ...good.alone, change: -good.alone.change };
  const decided = regression ? worse.strongest : improvement ? good.strongest : null;
  const shown = decided ? { ...decided, change: regression ? decided.change : -decided.change } : alone;
  const { change, p } = shown;
  const significant = p < rule.alpha;
  const pct = `${signedPct(change)} ${change >= 0 ? 'worse' : 'better'}`;
  // the runs set aside count where this run alone was found a regression
  const setAsideShown = regression && shown.span === 1 ? aside : 0;
  const over =
    shown.span === 1
      ? `median ${fmt(m)} vs ${fmt(pastMedian)} over ${usable.length - setAsideShown} runs (${pct})`
      : `this run and the ${shown.span - 1} before it vs the ${shown.baseline} runs before them (${pct}; median ${fmt(m)} vs ${fmt(pastMedian)})`;
  const setAside = setAsideShown
    ? `; the newest ${setAsideShown} earlier run(s) set aside: they had moved worse already`
    : '';
  const why =
    status !== 'no change'
      ? `p = ${formatP(p)} < ${rule.alpha} and ${pct1(change)} >= ${pctOf(rule.minChange)}`
      : significant && change >= rule.minChange
        ? `p = ${formatP(p)} against every earlier run, but ${formatP(worse.alone.p)} against the runs before the newest ${aside} that had moved worse`
        : significant
          ? `significant (p = ${formatP(p)}) but under the ${pctOf(rule.minChange)} threshold`
          : `p = ${formatP(p)}, within the past runs' spread`;
  const reason = `${over}: ${why}${setAside}`;
  return {
    ...base,
    pastMedian,
    change,
    p,
    span: shown.span,
    status,
    reason: base.engineChange ? `${reason}; ${base.engineChange}` : reason,
  };
}

/** "5%", "2%", "2.5%". @param {number} x */
const pctOf = (x) => `${Number((x * 100).toFixed(1))}%`;

/**
 * The one-sided test for a shift in direction `sign` (+1: the log level went up) over the newest 1..4
 * runs (the last level is the new run's), each span's p-value divided by its weight (at most 1):
 * `strongest`, the span with the smallest such p-value among those whose change reaches minChange (null
 * when none does), and `alone`, the new run by itself. `change` is relative, positive in the direction
 * tested. Needs at least rule.minRuns runs before the new one.
 * @param {ReturnType<typeof runLevels>} levels past runs then the new run, oldest first
 * @param {1 | -1} sign @param {Rule} rule @param {Steps} steps
 */
export function shiftTest({ levels, positive }, sign, rule, steps, spans = spanStats(levels, rule, steps)) {
  const mean0 = levels.slice(0, -1).reduce((a, x) => a + x.level, 0) / (levels.length - 1);
  const tested = spans.map(({ span, weight, df, k, diff: up, scale }) => {
    const diff = sign * up;
    const oneSided = oneSidedP(diff, scale, df);
    // "two" is the rule before issue 21 (the ablation): both directions share alpha.
    const p = Math.min(1, (steps.sided === 'two' ? 2 * Math.min(oneSided, 1 - oneSided) : oneSided) / weight);
    const change = positive ? Math.expm1(diff) : diff / Math.abs(mean0 || 1);
    return { p, change, span, baseline: k };
  });
  // The span that shows the change best: the smallest p among those whose change reaches minChange.
  const counted = tested.filter((x) => x.change >= rule.minChange);
  const strongest = counted.length ? counted.reduce((a, x) => (x.p < a.p ? x : a)) : null;
  return { strongest, alone: tested[0] };
}

/** The one-sided p of a shift `diff` at `scale` with df degrees of freedom. @param {number} diff @param {number} scale @param {number} df */
const oneSidedP = (diff, scale, df) =>
  scale > 0 && df > 0 ? 1 - tCdf(diff / scale, df) : diff > 0 ? 0 : diff < 0 || df < 1 ? 1 : 0.5;

/**
 * How many of the newest earlier runs (up to aside.runs) had already moved worse together: the s whose span
 * of the s newest earlier runs, against the runs before them, moved worse with the smallest one-sided p, when
 * that is under aside.p; else 0. Why: a regression that lasts and was missed on its first run would otherwise join the yardstick
 * the next runs are judged against, moving its level and widening its spread, and hide them.
 * @param {ReturnType<typeof runLevels>['levels']} levels earlier runs then this one @param {1 | -1} sign worse
 * @param {Rule} rule @param {{ runs: number, p: number }} aside @param {Steps} steps
 */
export function movedWorse(levels, sign, rule, aside, steps) {
  const past = levels.slice(0, -1);
  let moved = 0;
  let best = aside.p;
  for (let s = 1; s <= aside.runs && past.length - s >= rule.minRuns; s++) {
    const stats = spanStats(past, rule, { ...steps, spans: Array(s).fill(1) });
    const last = stats[stats.length - 1];
    const p = last?.span === s ? oneSidedP(sign * last.diff, last.scale, last.df) : 1;
    if (p < best) [moved, best] = [s, p];
  }
  return moved;
}

/**
 * Per span of the newest 1..4 runs (while at least rule.minRuns runs stay before it): the difference of
 * its mean level from the baseline's mean (the runs before it, far outliers set aside), the scale of that
 * difference, and the baseline's size k.
 * @param {ReturnType<typeof runLevels>['levels']} levels @param {Rule} rule @param {Steps} steps
 */
export function spanStats(levels, rule, steps) {
  const out = [];
  for (const [i, weight] of steps.spans.entries()) {
    const span = i + 1;
    const nBase = levels.length - span;
    if (nBase < rule.minRuns) break;
    const baseline = withoutFarOutliers(levels.slice(0, nBase), (x) => x.level);
    const k = baseline.length;
    const mean = baseline.reduce((a, x) => a + x.level, 0) / k;
    const recent = levels.slice(nBase);
    const recentMean = recent.reduce((a, x) => a + x.level, 0) / span;
    // The spread of a run's level: the baseline's, pooled with the span's own around its mean (a change
    // that lasts moves the span as a whole; one run that jumped spreads it): k + span - 2 degrees of freedom.
    const squares =
      baseline.reduce((a, x) => a + (x.level - mean) ** 2, 0) +
      recent.reduce((a, x) => a + (x.level - recentMean) ** 2, 0);
    const df = k + span - 2;
    const sd = df > 0 ? Math.sqrt(squares / df) : 0;
    const sePast = median(baseline.map((x) => x.se));
    const nPast = median(baseline.map((x) => x.n));
    // Each run of the span: that spread, plus what its level error exceeds a baseline run's because it has
    // fewer samples (error variance grows as 1/n); never below tau^2 (what runs differ by beyond their own
    // level error) plus its own error ('hierarchical'), so a noisier run is judged on that; the span's mean,
    // plus the baseline mean's own error.
    const tau2 = Math.max(0, sd ** 2 - baseline.reduce((a, x) => a + x.se ** 2, 0) / k);
    let variance = 0;
    for (const r of recent) {
      const own =
        steps.floor === 'hierarchical'
          ? tau2 + r.se ** 2
          : steps.floor === 'always' || r.se > NOISIER * sePast
            ? r.se ** 2
            : 0;
      variance += Math.max(sd ** 2 + sePast ** 2 * Math.max(0, nPast / r.n - 1), own);
    }
    const scale = Math.sqrt(variance / span ** 2 + sd ** 2 / k);
    const diff = recentMean - mean;
    out.push({ span, weight, df, k, diff, scale });
  }
  return out;
}

/**
 * Every run's level, its error and sample count, on the log scale when every sample is positive (changes
 * are ratios, as regressions are read, and right-skewed timings are tamed), else as is.
 * @param {number[][]} runs @param {Steps} steps
 */
export function runLevels(runs, steps) {
  const positive = runs.every((r) => r.every((x) => x > 0));
  const tr = positive ? Math.log : (/** @type {number} */ x) => x;
  // one kind of level for the whole series: the median when any run is too long for pairwise means
  const kind = steps.level === 'median' || runs.some((r) => r.length > MAX_PAIRWISE) ? 'median' : steps.level;
  const key = `${positive ? 'log' : 'linear'} ${kind}`;
  const level = (/** @type {number[]} */ r) => cached(steps, r, key, () => levelOf(r.map(tr), kind));
  return { levels: runs.map((r) => ({ ...level(r), n: r.length })), positive };
}

/**
 * compute(), or what it gave before for this samples array and key when steps has a cache.
 * @template T
 * @param {Steps} steps @param {number[]} samples @param {string} key @param {() => T} compute
 * @returns {T}
 */
function cached(steps, samples, key, compute) {
  if (!steps.cache) return compute();
  let byKey = steps.cache.get(samples);
  if (!byKey) steps.cache.set(samples, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, compute());
  return byKey.get(key);
}

/**
 * A run's level and its standard error, on the test's scale: the Hodges-Lehmann pseudo-median (the median
 * of the n(n+1)/2 pairwise means), with the standard error of a 20%-trimmed mean (Tukey and McLaughlin:
 * the 20%-winsorized standard deviation / (0.6 sqrt(n))), which matches the pseudo-median's on symmetric
 * data and, like it, is not blown up by a few outlying samples; or the median with its order-statistic
 * error (the rule before issue 21, and series with a run of more than 100 samples, where the pairwise
 * means would be many). 0 error below 5 samples.
 * @param {number[]} xs @param {'pseudo-median' | 'median'} [kind]
 */
export function levelOf(xs, kind = 'pseudo-median') {
  const n = xs.length;
  if (kind === 'median' || n > MAX_PAIRWISE) return { level: median(xs), se: medianStandardError(xs) };
  const N = (n * (n + 1)) / 2;
  if (scratch.length < N) scratch = new Float64Array(Math.max(N, 2 * scratch.length));
  let w = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) scratch[w++] = (xs[i] + xs[j]) / 2;
  const hi = select(scratch, N, Math.floor(N / 2));
  // the lower middle, for an even count, is the largest of the values left below the upper one
  let lo = -Infinity;
  if (N % 2 === 0) for (let i = 0; i < N / 2; i++) lo = Math.max(lo, scratch[i]);
  const level = N % 2 ? hi : (lo + hi) / 2;
  return { level, se: n < 5 ? 0 : trimmedMeanError(xs) };
}

/** Runs longer than this get the median as their level (n(n+1)/2 pairwise means grow fast). */
const MAX_PAIRWISE = 100;

/** Reused for the pairwise means (levelOf runs for every run of every verdict). */
let scratch = new Float64Array(1024);

/**
 * The k-th smallest (0-based) of a[0 .. n-1], reordering them so that those before k are not larger
 * (Hoare's selection, middle pivot).
 * @param {Float64Array} a @param {number} n @param {number} k
 */
function select(a, n, k) {
  let left = 0;
  let right = n - 1;
  while (left < right) {
    const pivot = a[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k];
}

/**
 * Standard error of the 20%-trimmed mean: the winsorized standard deviation / ((1 - 2 * 0.2) * sqrt(n)),
 * g = floor(0.2 n) values winsorized at each end.
 * @param {number[]} xs at least 2
 */
function trimmedMeanError(xs) {
  const n = xs.length;
  const s = new Float64Array(xs).sort();
  const g = Math.floor(0.2 * n);
  const w = Array.from(s, (x, i) => (i < g ? s[g] : i >= n - g ? s[n - g - 1] : x));
  const mean = w.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(w.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  return sd / ((1 - (2 * g) / n) * Math.sqrt(n));
}

/**
 * The single-run test of the rule before issue 21, kept for callers of it (judge() no longer uses it).
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
  const xs = withoutFarOutliers(pastMedians.map(tr), (x) => x);
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
 * @template T
 * @param {T[]} items @param {(x: T) => number} value
 * @returns {T[]}
 */
function withoutFarOutliers(items, value) {
  const xs = items.map(value);
  const center = median(xs);
  const mad = 1.4826 * median(xs.map((x) => Math.abs(x - center)));
  if (!(mad > 0)) return items;
  const far = xs.filter((x) => Math.abs(x - center) > 5 * mad);
  return far.length > 0 && far.length <= Math.floor(xs.length / 10)
    ? items.filter((_, i) => Math.abs(xs[i] - center) <= 5 * mad)
    : items;
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
