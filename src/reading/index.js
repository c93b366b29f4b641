// The reading of a run: every comparison it supports, built once, each with its change, interval, outcome
// and what it could have seen. Every output only formats a reading: the terminal `compare`, report.md and
// report.html, the site's overview (src/history/overview.js writes it at publish time), the job summary,
// the pull-request comment, `compare --json` and the workflow outputs (./gate.js).
import { costFactor, defaultThreshold } from '../model/change.js';
import { isDecisionMetric } from '../model/decisions.js';
import { withStartupWithoutImage } from '../model/earlier-results.js';
import { summarize } from '../stats/index.js';
import { decideOne, decisionLevel, levelAt, lookLevels } from './decide.js';
import { compareSampleSets } from './pair.js';
import { abPairs, isAsked, versusTitle, withinRunPairs } from './pairs.js';

export { FALSE_ALARM_RATE, decisionLevel, levelAt, lookLevels, samplesToDecide } from './decide.js';
export { compareSampleSets, smallestMannWhitneyP } from './pair.js';
export { abPairs, versusTitle, withinRunPairs } from './pairs.js';

/**
 * @typedef {{ env: string, distro: string, n: number, median: number, low: number, high: number }} Side
 * @typedef {import('./pair.js').PairStats & {
 *   kind: import('./pairs.js').PairKind, title: string,
 *   benchmark: string, metric: string, unit: string, engine: string | null,
 *   baseline: Side, candidate: Side, threshold: number, family: 'decision' | 'described',
 *   decision: boolean, described: boolean, level: number, q: number,
 *   outcome: import('../model/change.js').Outcome | null, samplesToDecide: number | null, why: string | null,
 *   stopped: string | null,
 * }} Comparison
 * `family`: a decision (one of the run's questions: a benchmark's decision metric for a pair the run asks,
 * or a metric the gate names; judged under the reading's false-alarm control, ./decide.js) or described
 * (every other metric: its change and 95% interval, no outcome, never counted in an answer).
 * `ratio`: for a decision, the ratio of geometric means with the interval its outcome was read from, at
 * `level`; described, the ratio of medians with its 95% bootstrap interval. `worse`: the change in cost,
 * + worse (costChange: the number every output prints). `q`: the decision's p-value (Mann-Whitney, shown
 * only); `samplesToDecide`: about how many samples a side would decide an inconclusive decision; `why`:
 * why a decision could not be read at all; `stopped`: why the candidate's cell stopped taking samples
 * (results sampling.stopped: decided, iteration cap, budget spent), null for a fixed design.
 * @typedef {(benchmark: string, metric: string) => number} ThresholdOf
 * @typedef {{ thresholdOf?: ThresholdOf, gated?: (benchmark: string, metric: string) => boolean, looks?: number,
 *   lookSizes?: number[], seed?: number, resamples?: number }} ReadOptions
 * gated: the metrics a gate names (`--gate`): decisions too, whatever their pair. looks: how many times the
 * run's design could look at its decisions (default: the results' run.looks, else 1); lookSizes: at how many
 * samples a side (the results' run.lookSizes): known, the rate is spent over them by ./decide.js DESIGN and
 * each decision is read at its look's level; unknown (older files), Bonferroni over the looks' count.
 */

/**
 * Every comparison inside a run (see ./pairs.js for which), its decisions judged together.
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {ReadOptions} [opts]
 * @returns {Comparison[]}
 */
export function readWithinRun(results, opts = {}) {
  return readPairs(withinRunPairs(okCells(results)), { ...looksOf(results), ...opts });
}

/**
 * An A/B: every metric both environments measured, the candidate against the baseline; the decision
 * metrics (and the gate's) judged together.
 * @param {import('#model/results.js').Results} results @param {string} baseline @param {string} candidate
 * @param {ReadOptions} [opts]
 * @returns {Comparison[]}
 */
export function readAb(results, baseline, candidate, opts = {}) {
  return readPairs(abPairs(okCells(results), baseline, candidate), { ...looksOf(results), ...opts });
}

/**
 * The looks a run's sampling design allowed: how many (run.looks; 1 for a fixed design or an older file) and,
 * where recorded, at how many samples a side (run.lookSizes).
 * @param {any} results @returns {{ looks: number, lookSizes?: number[] }}
 */
function looksOf(results) {
  const looks = Number.isInteger(results.run?.looks) && results.run.looks > 0 ? results.run.looks : 1;
  const sizes = results.run?.lookSizes;
  const increasing =
    Array.isArray(sizes) &&
    sizes.length === looks &&
    sizes.every((n, i) => Number.isInteger(n) && n >= 1 && (i === 0 || n > sizes[i - 1]));
  return increasing ? { looks, lookSizes: sizes } : { looks };
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
const okCells = (results) =>
  results.cells.filter((/** @type {any} */ c) => c.status === 'ok').map((c) => withStartupWithoutImage(c));

/**
 * @param {import('./pairs.js').CellPair[]} pairs @param {ReadOptions} opts
 * @returns {Comparison[]}
 */
function readPairs(pairs, opts) {
  const thresholdOf = opts.thresholdOf ?? defaultThreshold;
  /** @type {Array<{ pair: import('./pairs.js').CellPair, b: any, m: any, decision: boolean }>} */
  const found = [];
  for (const pair of pairs)
    for (const m of pair.candidate.metrics) {
      const b = pair.baseline.metrics.find((/** @type {any} */ x) => x.metric === m.metric);
      if (!b || !b.samples.length || !m.samples.length) continue;
      const bench = pair.candidate.benchmark;
      const decision =
        (isAsked(pair.kind) && isDecisionMetric(bench, m.metric)) || Boolean(opts.gated?.(bench, m.metric));
      found.push({ pair, b, m, decision });
    }
  const decisions = found.filter((f) => f.decision).length;
  const levels = opts.lookSizes?.length ? lookLevels(decisions, opts.lookSizes) : null;
  const { level: single } = decisionLevel(decisions, opts.looks ?? 1);
  /** The level a decision is read at: its look's when the look sizes are known. @param {number} n */
  const levelOf = (n) => (levels ? levelAt(levels, n) : single);
  return found.map(({ pair: { kind, baseline, candidate }, b, m, decision }) => {
    const stats = { seed: opts.seed, resamples: opts.resamples };
    const sides = {
      baseline: { env: baseline.environmentKey, distro: baseline.distro, ...summaryOf(b.samples, stats) },
      candidate: { env: candidate.environmentKey, distro: candidate.distro, ...summaryOf(m.samples, stats) },
    };
    const threshold = thresholdOf(candidate.benchmark, m.metric);
    const pair = compareSampleSets(b.samples, m.samples, m.better, stats);
    const common = {
      kind,
      title: versusTitle({ kind, ...sides }),
      benchmark: candidate.benchmark,
      metric: m.metric,
      unit: m.unit,
      engine: candidate.engine ?? null,
      ...sides,
      ...pair,
      threshold,
      q: pair.p,
      stopped: candidate.sampling?.stopped ?? null,
    };
    if (!decision)
      return {
        ...common,
        family: /** @type {const} */ ('described'),
        decision: false,
        described: true,
        level: 0.95,
        significant: false,
        outcome: null,
        samplesToDecide: null,
        why: null,
      };
    const decided = decideOne(
      { better: m.better, threshold, samples: { baseline: b.samples, candidate: m.samples } },
      levelOf(Math.min(b.samples.length, m.samples.length)),
    );
    return {
      ...common,
      ...decided,
      worse: costFactor(decided.ratio.ratio, m.better) - 1,
      detectable: { ...pair.detectable, ...decided.detectable },
      family: /** @type {const} */ ('decision'),
      described: false,
    };
  });
}

/** Docker's cells are the baseline of several pairs: each sample set is summarized once. */
const summaries = new WeakMap();
/** @param {number[]} samples @param {{ seed?: number, resamples?: number }} opts */
function summaryOf(samples, opts) {
  if (opts.seed !== undefined || opts.resamples !== undefined) return summarize(samples, opts);
  if (!summaries.has(samples)) summaries.set(samples, summarize(samples));
  return summaries.get(samples);
}
