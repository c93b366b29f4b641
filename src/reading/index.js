// The reading of a run: every comparison it supports, built once, each with its change, interval, outcome
// and what it could have seen. Every output only formats a reading: the terminal `compare`, report.md and
// report.html, the site's overview (src/history/overview.js writes it at publish time), the job summary,
// the pull-request comment, `compare --json` and the workflow outputs (./gate.js).
import { defaultThreshold } from '../model/change.js';
import { summarize } from '../stats/index.js';
import { FALSE_ALARM_RATE, judgeAll } from './decide.js';
import { compareSampleSets } from './pair.js';
import { gateFor } from './gate.js';
import { abPairs, versusTitle, withinRunPairs } from './pairs.js';

export { FALSE_ALARM_RATE, benjaminiHochberg, samplesToDecide } from './decide.js';
export { compareSampleSets, smallestMannWhitneyP } from './pair.js';
export { abPairs, versusTitle, withinRunPairs } from './pairs.js';

/**
 * @typedef {{ env: string, distro: string, n: number, median: number, low: number, high: number }} Side
 * @typedef {import('./pair.js').PairStats & import('./decide.js').Judged & {
 *   kind: import('./pairs.js').PairKind, title: string,
 *   benchmark: string, metric: string, unit: string, engine: string | null,
 *   baseline: Side, candidate: Side, threshold: number, family: 'all' | 'gated' | 'not gated',
 * }} Comparison
 * `worse`: the change in cost, + worse (costChange: the number every output prints). `q`: the p-value
 * after the run's false-alarm control (Benjamini-Hochberg over its `family`: every comparison of the
 * reading, or, with a gate, the gated ones apart from the rest);
 * `significant`: q < 0.05 and the interval excludes no change. `threshold`: T, the practical threshold
 * (a fraction) of ../model/change.js outcomeOf. `samplesToDecide`: about how many samples a side would
 * decide an inconclusive comparison.
 * @typedef {(benchmark: string, metric: string) => number} ThresholdOf
 * @typedef {{ thresholdOf?: ThresholdOf, gated?: (benchmark: string, metric: string) => boolean, seed?: number, resamples?: number }} ReadOptions
 * gated: the metrics a gate judges (default: ./gate.js gateFor, what a job pays where the run measured
 * it). They form a family of their own for the false-alarm control (so a gate on the one metric a team
 * cares about is not diluted by a hundred others), the rest another.
 */

/**
 * Every comparison inside a run (see ./pairs.js for which), judged together.
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {ReadOptions} [opts]
 * @returns {Comparison[]}
 */
export function readWithinRun(results, opts = {}) {
  return readPairs(withinRunPairs(okCells(results)), { gated: gateFor([], metricsOf(results)).gated, ...opts });
}

/**
 * An A/B: every metric both environments measured, the candidate against the baseline, judged together.
 * @param {import('#model/results.js').Results} results @param {string} baseline @param {string} candidate
 * @param {ReadOptions} [opts]
 * @returns {Comparison[]}
 */
export function readAb(results, baseline, candidate, opts = {}) {
  return readPairs(abPairs(okCells(results), baseline, candidate), {
    gated: gateFor([], metricsOf(results)).gated,
    ...opts,
  });
}

/**
 * Every benchmark and metric a run measured (cells that ran).
 * @param {import('#model/results.js').Results} results
 */
export const metricsOf = (results) =>
  okCells(results).flatMap((/** @type {any} */ c) =>
    c.metrics.map((/** @type {any} */ m) => ({ benchmark: c.benchmark, metric: m.metric })),
  );

/** @param {import('#model/results.js').Results} results */
const okCells = (results) => results.cells.filter((/** @type {any} */ c) => c.status === 'ok');

/**
 * @param {import('./pairs.js').CellPair[]} pairs @param {ReadOptions} opts
 * @returns {Comparison[]}
 */
function readPairs(pairs, opts) {
  const thresholdOf = opts.thresholdOf ?? defaultThreshold;
  const gated = opts.gated;
  /** @type {Array<[import('./pairs.js').CellPair, any, any]>} */
  const found = [];
  for (const pair of pairs)
    for (const m of pair.candidate.metrics) {
      const b = pair.baseline.metrics.find((/** @type {any} */ x) => x.metric === m.metric);
      if (b && b.samples.length && m.samples.length) found.push([pair, b, m]);
    }
  // Gated and not gated are families of their own only when a gate splits the reading.
  const split = gated && !found.every(([p, , m]) => gated(p.candidate.benchmark, m.metric));
  const familyOf = (/** @type {string} */ bench, /** @type {string} */ metric) =>
    !split ? 'all' : /** @type {any} */ (gated)(bench, metric) ? 'gated' : 'not gated';
  /** @type {Record<string, number>} */
  const sizes = {};
  for (const [p, , m] of found) {
    const f = familyOf(p.candidate.benchmark, m.metric);
    sizes[f] = (sizes[f] ?? 0) + 1;
  }
  const out = found.map(([{ kind, baseline, candidate }, b, m], at) => {
    const family = /** @type {Comparison['family']} */ (familyOf(candidate.benchmark, m.metric));
    // What it could see if it changed alone in its family: the false-alarm control then asks for p below
    // FALSE_ALARM_RATE over the family's size (Benjamini-Hochberg's first step).
    const alpha = FALSE_ALARM_RATE / sizes[family];
    const pair = compareSampleSets(b.samples, m.samples, m.better, {
      seed: opts.seed,
      resamples: opts.resamples,
      alpha,
    });
    const stats = { seed: opts.seed, resamples: opts.resamples };
    const sides = {
      baseline: { env: baseline.environmentKey, distro: baseline.distro, ...summaryOf(b.samples, stats) },
      candidate: { env: candidate.environmentKey, distro: candidate.distro, ...summaryOf(m.samples, stats) },
    };
    return {
      kind,
      title: versusTitle({ kind, ...sides }),
      benchmark: candidate.benchmark,
      metric: m.metric,
      unit: m.unit,
      engine: candidate.engine ?? null,
      ...sides,
      ...pair,
      threshold: thresholdOf(candidate.benchmark, m.metric),
      family,
      at,
    };
  });
  // Each family judged apart, then back in the reading's order.
  const judged = Object.keys(sizes).flatMap((f) => judgeAll(out.filter((c) => c.family === f)));
  return judged.sort((a, b) => a.at - b.at).map(({ at: _at, ...c }) => c);
}

/** Docker's cells are the baseline of several pairs: each sample set is summarized once. */
const summaries = new WeakMap();
/** @param {number[]} samples @param {{ seed?: number, resamples?: number }} opts */
function summaryOf(samples, opts) {
  if (opts.seed !== undefined || opts.resamples !== undefined) return summarize(samples, opts);
  if (!summaries.has(samples)) summaries.set(samples, summarize(samples));
  return summaries.get(samples);
}
