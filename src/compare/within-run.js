// Comparisons inside one run: DinD vs Docker (the headline), Docker vs native, Alpine vs Debian.
// Each pair of cells is compared metric by metric from the raw samples: ratio of medians with a bootstrap
// interval, Mann-Whitney p-value, Cliff's delta. The runner interleaves environments, so within a run the
// samples of two environments share the machine's drift and can be compared directly.
import { cliffsDelta, mannWhitneyU, ratioOfMedians, summarize } from '../stats/index.js';

/**
 * @typedef {{ env: string, distro: string, n: number, median: number, low: number, high: number }} Side
 * @typedef {{
 *   kind: 'dind-vs-docker' | 'docker-vs-native' | 'alpine-vs-debian',
 *   benchmark: string, metric: string, unit: string, better: 'higher' | 'lower', engine: string | null,
 *   baseline: Side, candidate: Side,
 *   ratio: { ratio: number, low: number, high: number },
 *   p: number, cliffsDelta: number, magnitude: string,
 *   worse: number, significant: boolean, testable: boolean,
 * }} Comparison
 * `worse` is the candidate's relative change in the metric's bad direction (+0.12 = 12% worse than the
 * baseline: 12% slower, or 12% less throughput); `significant` means p < 0.05 and the interval of the ratio excludes 1.
 * `testable` is false when the samples are too few for any p below 0.05 (3 vs 3, as in the quick profile:
 * the exact Mann-Whitney p-value cannot go below 0.1), so "not significant" says nothing there.
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
 * @param {any} results a valid results document
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
    if (c.environment === 'dind' || c.environment === 'dind-vfs') {
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
 * @param {Comparison['kind']} kind @param {any} baseCell @param {any} candCell
 * @param {any} baseMetric @param {any} candMetric @param {{ seed?: number, resamples?: number }} opts
 * @returns {Comparison}
 */
function compareSamples(kind, baseCell, candCell, baseMetric, candMetric, opts) {
  const ratio = ratioOfMedians(baseMetric.samples, candMetric.samples, opts);
  const { p } = mannWhitneyU(candMetric.samples, baseMetric.samples);
  const { delta, magnitude } = cliffsDelta(candMetric.samples, baseMetric.samples);
  const better = candMetric.better;
  const worse = better === 'lower' ? ratio.ratio - 1 : 1 - ratio.ratio;
  return {
    kind,
    benchmark: candCell.benchmark,
    metric: candMetric.metric,
    unit: candMetric.unit,
    better,
    engine: candCell.engine ?? null,
    baseline: { env: baseCell.environmentKey, distro: baseCell.distro, ...summaryOf(baseMetric.samples, opts) },
    candidate: { env: candCell.environmentKey, distro: candCell.distro, ...summaryOf(candMetric.samples, opts) },
    ratio,
    p,
    cliffsDelta: delta,
    magnitude,
    worse,
    significant: p < 0.05 && (ratio.low > 1 || ratio.high < 1),
    testable: smallestMannWhitneyP(candMetric.samples.length, baseMetric.samples.length) < 0.05,
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
