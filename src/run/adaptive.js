// Sampling until decided (`run --budget`, and the quick profile's own budget): after the planned rounds,
// the run looks at its decisions (src/model/decisions.js: each benchmark's decision metric for the pairs
// the run asks) and gives the next interleaved round to the benchmark whose open decisions are closest to
// an answer per second of runner time, each round only to the cells an open decision still needs. A
// decision stops when it is decided (regression, improvement or equivalent), at the iteration cap, or when
// the budget cannot pay for another round; a cell stops when none of its decisions is open, and gives its
// time to the others. Gated decisions (the gate's metrics: by default the start-up a job pays, or a
// workload's job time) go first. Pure decisions here; ./adaptive-rounds.js runs the rounds.
//
// Why looking again does not buy false decisions: decisions are read only at the looks of the design
// (src/model/decisions.js LOOKS: 5, 7, 10, 14 ... samples a side, up to the cap), and the reading spends its
// false-alarm rate over those looks (the run records how many: results run.looks; src/reading/decide.js),
// so a decision read at any look, or at the end, is held to the rate the report states.
// bench/eval/adaptive.js measures the whole procedure's A/A.
import { decideOne, decisionLevel } from '../reading/decide.js';
import { abPairs, isAsked, withinRunPairs } from '../reading/pairs.js';
import { defaultThreshold } from '../model/change.js';
import { isDecisionMetric, looksUpTo } from '../model/decisions.js';

/**
 * @typedef {{ budgetMs: number, maxIterations: number, reserveMs: number, firstLook: number, pair?: Pair,
 *   thresholdOf?: (benchmark: string, metric: string) => number, gated?: (benchmark: string, metric: string) => boolean }} AdaptiveOptions
 *   budgetMs: the whole run's wall-time budget; reserveMs: kept for provenance and teardown; firstLook: the
 *   planned iterations (the first look); pair: the A/B the rounds aim at, if any; thresholdOf: each metric's
 *   T; gated: the gate's metrics
 * @typedef {{ benchmark: string, open: OpenDecision[], decided: number, roundMs: number, iterations: number,
 *   gated: boolean, cells: string[] }} BenchmarkState
 *   open: its decisions not yet decided; decided: how many are; roundMs: what one more round of the cells
 *   it needs costs (measured); iterations: samples a side so far; cells: the environment keys and distros
 *   (`env/distro`) an open decision needs
 * @typedef {{ metric: string, baseline: string, candidate: string, samplesToDecide: number | null, gated: boolean, n: number }} OpenDecision
 *   baseline, candidate: `env/distro` of each side; n: samples a side (the smaller side's)
 * @typedef {{ baseline: string, candidate: string }} Pair environment keys, e.g. dind@20.10 and dind@26.1
 * @typedef {{ environment: string, environmentKey: string, distro: string, benchmark: string, status: string,
 *   metrics: Array<{ metric: string, better: 'higher' | 'lower', samples: number[] }> }} SampledCell
 * @typedef {SampledCell['metrics'][number]} SampledMetric
 */

export const DEFAULT_MAX_ITERATIONS = 30;

/** `env/distro` of a cell. @param {{ environmentKey: string, distro: string }} c */
export const sideOf = (c) => `${c.environmentKey}/${c.distro}`;

/**
 * The decisions among cells (those still running and those done: Docker's cell is the baseline of several),
 * as the reading will pair them: each environment against Docker and each later Engine line, or the A/B.
 * @param {SampledCell[]} cells @param {Pair} [pair]
 */
export function decisionPairs(cells, pair) {
  const ok = cells.filter((c) => c.status === 'ok' || c.status === 'pending');
  const pairs = pair ? abPairs(ok, pair.baseline, pair.candidate) : withinRunPairs(ok);
  return pairs
    .filter((p) => isAsked(p.kind))
    .flatMap((p) =>
      p.candidate.metrics
        .filter((/** @type {SampledMetric} */ m) => isDecisionMetric(p.candidate.benchmark, m.metric))
        .map((/** @type {SampledMetric} */ m) => ({ pair: p, metric: m.metric, better: m.better })),
    );
}

/**
 * Where one benchmark's decisions stand: each is read again only when its sample count (the smaller side's)
 * is a look of the design, or the first time; between looks it stays as it was read (`memo`), so a
 * decision is made only at a look.
 * @param {string} benchmark @param {SampledCell[]} all every cell of the run
 * @param {{ level: number, pair?: Pair, thresholdOf?: AdaptiveOptions['thresholdOf'], gated?: AdaptiveOptions['gated'],
 *   isLook?: (n: number) => boolean, memo?: Map<string, OpenDecision | null> }} o
 * @returns {{ open: OpenDecision[], decided: number }}
 */
export function decisionsOf(benchmark, all, o) {
  const thresholdOf = o.thresholdOf ?? defaultThreshold;
  /** @type {OpenDecision[]} */
  const open = [];
  let decided = 0;
  for (const d of decisionPairs(
    all.filter((c) => c.benchmark === benchmark),
    o.pair,
  )) {
    const samplesOf = (/** @type {SampledCell} */ c) => c.metrics.find((m) => m.metric === d.metric)?.samples ?? [];
    const baseline = samplesOf(d.pair.baseline);
    const candidate = samplesOf(d.pair.candidate);
    const key = `${d.metric} ${sideOf(d.pair.baseline)} ${sideOf(d.pair.candidate)}`;
    const n = Math.min(baseline.length, candidate.length);
    /** @type {OpenDecision | null | undefined} */
    let state = o.memo?.get(key);
    if (state === undefined || !o.isLook || o.isLook(n)) {
      const r = decideOne(
        { better: d.better, threshold: thresholdOf(benchmark, d.metric), samples: { baseline, candidate } },
        o.level,
      );
      state =
        r.outcome !== 'inconclusive'
          ? null
          : {
              metric: d.metric,
              baseline: sideOf(d.pair.baseline),
              candidate: sideOf(d.pair.candidate),
              samplesToDecide: r.samplesToDecide,
              gated: Boolean(o.gated?.(benchmark, d.metric)),
              n,
            };
      o.memo?.set(key, state);
    }
    if (state === null) decided++;
    else open.push({ ...state, n });
  }
  return { open, decided };
}

/**
 * The level decisions are read at during the run: the reading's (src/reading/decide.js decisionLevel) for
 * this many decisions and the design's looks.
 * @param {SampledCell[]} all @param {AdaptiveOptions} opts
 */
export function runLevel(all, opts) {
  return decisionLevel(decisionPairs(all, opts.pair).length, looksOf(opts)).level;
}

/** The looks the design allows: the planned rounds, LOOKS between, the cap. @param {AdaptiveOptions} opts */
export const looksOf = (opts) => looksUpTo(opts.firstLook, opts.maxIterations).length;

/** Whether n samples a side is a look of the design. @param {number} n @param {AdaptiveOptions} opts */
export const isLook = (n, opts) => looksUpTo(opts.firstLook, opts.maxIterations).includes(n);

/**
 * Which benchmark gets the next round, or null to stop: among those with an open decision, under the cap,
 * whose round fits in what is left, the one closest to an answer per second: the fewest samples its
 * nearest decision still needs (samplesToDecide - iterations; a decision more samples cannot decide comes
 * last), times what a round costs. Gated decisions first. Ties go to the earlier benchmark (plan order).
 * @param {BenchmarkState[]} states @param {number} remainingMs @param {AdaptiveOptions} opts
 * @returns {BenchmarkState | null}
 */
export function nextRound(states, remainingMs, opts) {
  const runnable = (/** @type {BenchmarkState} */ s) =>
    s.open.length > 0 && s.iterations < opts.maxIterations && s.roundMs <= remainingMs;
  const pool = states.some((s) => s.gated && runnable(s)) ? states.filter((s) => s.gated) : states;
  let best = null;
  let bestCost = Infinity;
  for (const s of pool) {
    if (!runnable(s)) continue;
    const cost = Math.max(1, s.roundMs) * distance(s);
    if (best === null || cost < bestCost) {
      best = s;
      bestCost = cost;
    }
  }
  return best;
}

/** Rounds the nearest open decision still needs (1e6 when more samples cannot decide it). @param {BenchmarkState} s */
function distance(s) {
  const needs = s.open.map((d) => (d.samplesToDecide === null ? 1e6 : Math.max(1, d.samplesToDecide - s.iterations)));
  return Math.min(...needs);
}

/**
 * Why a benchmark's cells stopped taking samples, as recorded in results.json (`sampling.stopped`).
 * @param {BenchmarkState} s @param {number} remainingMs @param {AdaptiveOptions} opts
 * @returns {'decided' | 'iteration cap' | 'budget spent'}
 */
export function stopReason(s, remainingMs, opts) {
  if (s.open.length === 0) return 'decided';
  if (s.iterations >= opts.maxIterations) return 'iteration cap';
  return 'budget spent';
}
