// Comparisons inside one run: DinD vs Docker (the headline), Docker vs native, Alpine vs Debian.
// Each pair of cells is compared metric by metric from the raw samples: ratio of medians with a bootstrap
// interval, Mann-Whitney p-value, Cliff's delta. The runner interleaves environments, so within a run the
// samples of two environments share the machine's drift and can be compared directly.
import { cliffsDelta, detectableWithinRun, mannWhitneyU, ratioOfMedians, summarize } from '../stats/index.js';
import { pValue } from '../model/numbers.js';

// The reading of a comparison is the model's (../model/change.js): re-exported for this layer's readers.
export { TOO_FEW_NOTE, WITHIN_RUN_WORDS, costFactor, reading, worseInterval, withinRunWord } from '../model/change.js';

/**
 * @typedef {{ env: string, distro: string, n: number, median: number, low: number, high: number }} Side
 * @typedef {{
 *   kind: 'dind-vs-docker' | 'docker-vs-native' | 'alpine-vs-debian',
 *   benchmark: string, metric: string, unit: string, better: 'higher' | 'lower', engine: string | null,
 *   baseline: Side, candidate: Side,
 *   ratio: { ratio: number, low: number, high: number },
 *   p: number, cliffsDelta: number, magnitude: 'negligible' | 'small' | 'medium' | 'large',
 *   worse: number, significant: boolean, testable: boolean,
 *   detectable: import('../stats/detectable.js').Detectable,
 * }} Comparison
 * `worse` is the candidate's relative change in the metric's bad direction (+0.12 = 12% worse than the
 * baseline: 12% slower, or 12% less throughput); `significant` means p < 0.05 and the interval of the ratio excludes 1.
 * `testable` is false when the samples are too few for any p below 0.05 (3 vs 3: the exact Mann-Whitney
 * p-value cannot go below 0.1), so "not significant" says nothing there. The quick profile plans 5 a side.
 * `detectable`: the smallest change these samples could show (p < 0.05, power 0.8) and the iterations
 * per side that would show 5% (src/stats/detectable.js).
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
 * Every comparison a run supports, in a stable order.
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {{ seed?: number, resamples?: number }} [opts]
 * @returns {Comparison[]}
 */
export function compareWithinRun(results, opts = {}) {
  const ok = results.cells.filter((/** @type {any} */ c) => c.status === 'ok');
  /** @type {Comparison[]} */
  const out = [];
  for (const [kind, baseline, candidate] of cellPairs(ok)) {
    for (const m of candidate.metrics) {
      const b = baseline.metrics.find((/** @type {any} */ x) => x.metric === m.metric);
      if (!b || b.samples.length === 0 || m.samples.length === 0) continue;
      out.push(compareSamples(kind, baseline, candidate, b, m, opts));
    }
  }
  return out;
}

/**
 * How a comparison is titled, by the environments actually compared: "DinD vs Docker" for dind, the
 * environment's own name for the other variants and alternatives ("dood vs Docker", "dind-rootless vs
 * Docker"), never DinD for what is not.
 * @param {Pick<Comparison, 'kind' | 'candidate'>} c
 */
export function versusTitle(c) {
  if (c.kind === 'docker-vs-native') return 'Docker vs native';
  if (c.kind === 'alpine-vs-debian') return 'Alpine vs Debian';
  const name = c.candidate.env.split('@')[0];
  return `${name === 'dind' ? 'DinD' : name} vs Docker`;
}

/**
 * Which cells to pair. Native cells have distro "host" and pair with every Docker distribution.
 * @param {any[]} cells cells that ran
 * @returns {Array<[Comparison['kind'], any, any]>}
 */
function cellPairs(cells) {
  /** @type {Array<[Comparison['kind'], any, any]>} */
  const pairs = [];
  const find = (/** @type {any} */ bench, /** @type {string} */ env, /** @type {string} */ distro) =>
    cells.find((c) => c.benchmark === bench && c.environmentKey === env && c.distro === distro);
  for (const c of cells) {
    // Every DinD variant and every alternative (dood, sysbox) stands against plain Docker, under the
    // kind 'dind-vs-docker'; versusTitle() names each by the environment actually compared.
    if (c.environment !== 'docker' && c.environment !== 'native') {
      const docker = find(c.benchmark, 'docker', c.distro);
      if (docker) pairs.push(['dind-vs-docker', docker, c]);
    }
  }
  for (const c of cells.filter((x) => x.environment === 'docker')) {
    const native = find(c.benchmark, 'native', 'host');
    if (native) pairs.push(['docker-vs-native', native, c]);
  }
  for (const c of cells.filter((x) => x.distro === 'alpine')) {
    const debian = find(c.benchmark, c.environmentKey, 'debian');
    if (debian) pairs.push(['alpine-vs-debian', debian, c]);
  }
  return pairs;
}

/**
 * @param {Comparison['kind']} kind @param {import('#model/results.js').Cell} baseCell @param {import('#model/results.js').Cell} candCell
 * @param {import('#model/results.js').Metric} baseMetric @param {import('#model/results.js').Metric} candMetric @param {{ seed?: number, resamples?: number }} opts
 * @returns {Comparison}
 */
function compareSamples(kind, baseCell, candCell, baseMetric, candMetric, opts) {
  const pair = compareSampleSets(baseMetric.samples, candMetric.samples, candMetric.better, opts);
  return {
    kind,
    benchmark: candCell.benchmark,
    metric: candMetric.metric,
    unit: candMetric.unit,
    better: pair.better,
    engine: candCell.engine ?? null,
    baseline: { env: baseCell.environmentKey, distro: baseCell.distro, ...summaryOf(baseMetric.samples, opts) },
    candidate: { env: candCell.environmentKey, distro: candCell.distro, ...summaryOf(candMetric.samples, opts) },
    ratio: pair.ratio,
    p: pair.p,
    cliffsDelta: pair.cliffsDelta,
    magnitude: pair.magnitude,
    worse: pair.worse,
    significant: pair.significant,
    testable: pair.testable,
    detectable: pair.detectable,
  };
}

/**
 * One candidate's samples against a baseline's, by the within-run rule: what `compare` reads for a pair of
 * cells, and what `publish` writes into the overview for the site (src/history/overview.js), so both say
 * the same word (withinRunWord).
 * @param {number[]} baseline @param {number[]} candidate @param {'higher' | 'lower'} better
 * @param {{ seed?: number, resamples?: number }} [opts] the bootstrap's; `compare` uses the defaults
 * @returns {Pick<Comparison, 'better' | 'ratio' | 'p' | 'cliffsDelta' | 'magnitude' | 'worse' | 'significant' | 'testable' | 'detectable'>}
 */
export function compareSampleSets(baseline, candidate, better, opts = {}) {
  const ratio = ratioOfMedians(baseline, candidate, opts);
  const { p } = mannWhitneyU(candidate, baseline);
  const { delta, magnitude } = cliffsDelta(candidate, baseline);
  return {
    better,
    ratio,
    p,
    cliffsDelta: delta,
    magnitude,
    worse: better === 'lower' ? ratio.ratio - 1 : 1 - ratio.ratio,
    significant: p < 0.05 && (ratio.low > 1 || ratio.high < 1),
    testable: smallestMannWhitneyP(candidate.length, baseline.length) < 0.05,
    detectable: detectableWithinRun(baseline, candidate, { alpha: 0.05, smallestP: smallestMannWhitneyP }),
  };
}

/** Docker's cells are the baseline of several pairs: each sample set is summarized once. */
const summaries = new WeakMap();
/** @param {number[]} samples @param {{ seed?: number, resamples?: number }} opts */
function summaryOf(samples, opts) {
  if (opts.seed !== undefined || opts.resamples !== undefined) return summarize(samples, opts);
  if (!summaries.has(samples)) summaries.set(samples, summarize(samples));
  return summaries.get(samples);
}

/**
 * The numbers behind a reading: the ratio's interval, p and Cliff's delta ("[1.05, 1.92] p 0.032 δ 0.84").
 * @param {Comparison} c
 */
export function details(c) {
  const ci = Number.isFinite(c.ratio.low) ? `[${c.ratio.low.toFixed(2)}, ${c.ratio.high.toFixed(2)}]` : '[–]';
  return `${ci} p ${pValue(c.p)} δ ${Number.isFinite(c.cliffsDelta) ? c.cliffsDelta.toFixed(2) : '–'}`;
}

/** @param {Comparison[]} comparisons */
export const anyTooFew = (comparisons) => comparisons.some((c) => !c.significant && c.testable === false);
