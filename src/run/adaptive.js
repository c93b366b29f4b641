// Sampling until decided (`run --budget`, and the quick profile's own budget): after the planned rounds,
// the run looks at its decisions (src/model/decisions.js: each benchmark's decision metric for the pairs
// the run asks) and gives the next sample to the open question cheapest to decide: the samples it is still
// expected to need times what one sample of it costs (a step of each of its two sides, interleaved), never
// to a decided one. A decision stops when it is decided (regression, improvement or equivalent), at the
// iteration cap, or when the budget cannot pay for its next sample; a cell stops when none of its
// decisions is open, and gives its time to the others. Gated decisions (the gate's metrics: by default the
// start-up a job pays, or a workload's job time) go first. Pure decisions here; ./adaptive-rounds.js runs
// the rounds.
//
// Why looking again does not buy false decisions: decisions are read only at the looks of the design
// (src/model/decisions.js LOOKS: 5, 7, 10, 14 ... samples a side, up to the cap), and the reading spends its
// false-alarm rate over those looks (the run records how many: results run.looks; src/reading/decide.js),
// so a decision read at any look, or at the end, is held to the rate the report states.
// bench/eval/adaptive.js measures the whole procedure's A/A.
import { decideOne, levelAt, lookLevels } from '../reading/decide.js';
import { abPairs, isAsked, withinRunPairs } from '../reading/pairs.js';
import { defaultThreshold } from '../model/change.js';
import { isDecisionMetric, looksUpTo } from '../model/decisions.js';

/**
 * @typedef {{ budgetMs: number, maxIterations: number, reserveMs: number, firstLook: number, pair?: Pair,
 *   thresholdOf?: (benchmark: string, metric: string) => number, gated?: (benchmark: string, metric: string) => boolean }} AdaptiveOptions
 *   budgetMs: the whole run's wall-time budget; reserveMs: kept for provenance and teardown; firstLook: the
 *   planned iterations (the first look); pair: the A/B the rounds aim at, if any; thresholdOf: each metric's
 *   T; gated: the gate's metrics
 * @typedef {OpenDecision & { benchmark: string, sampleMs: number, cells: string[] }} Question
 *   an open decision with what one more sample costs: one step of each of its sides under the cap
 *   (sampleMs, measured); cells: those sides (`env/distro`)
 * @typedef {{ benchmark: string, metric: string, baseline: string, candidate: string, samples: number,
 *   stopped: 'decided' | 'iteration cap' | 'budget spent' | 'left out for the budget' }} QuestionRecord
 *   one decision's sampling, as results record it (run.questions): samples a side it had when it was decided
 *   or when sampling stopped, and why it stopped
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
 * @param {{ level: number | ((n: number) => number), pair?: Pair, thresholdOf?: AdaptiveOptions['thresholdOf'], gated?: AdaptiveOptions['gated'],
 *   isLook?: (n: number) => boolean, memo?: Map<string, OpenDecision | null> }} o
 * @returns {{ open: OpenDecision[], decided: number, settled: { metric: string, baseline: string, candidate: string, n: number }[] }}
 *   settled: the decided ones, with their samples a side now
 */
export function decisionsOf(benchmark, all, o) {
  const thresholdOf = o.thresholdOf ?? defaultThreshold;
  /** @type {OpenDecision[]} */
  const open = [];
  /** @type {{ metric: string, baseline: string, candidate: string, n: number }[]} */
  const settled = [];
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
        typeof o.level === 'number' ? o.level : o.level(n),
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
    if (state === null) {
      decided++;
      settled.push({ metric: d.metric, baseline: sideOf(d.pair.baseline), candidate: sideOf(d.pair.candidate), n });
    } else open.push({ ...state, n });
  }
  return { open, decided, settled };
}

/**
 * The level a decision is read at during the run, by its samples a side: the reading's (src/reading/decide.js
 * lookLevels, levelAt) for this many decisions and the design's looks, so the run and its reading decide alike.
 * @param {SampledCell[]} all @param {AdaptiveOptions} opts
 * @returns {(n: number) => number}
 */
export function runLevel(all, opts) {
  const levels = lookLevels(decisionPairs(all, opts.pair).length, lookSizes(opts));
  return (n) => levelAt(levels, n);
}

/** At how many samples a side the design looks: the planned rounds, LOOKS between, the cap. @param {AdaptiveOptions} opts */
export const lookSizes = (opts) => looksUpTo(opts.firstLook, opts.maxIterations);

/** The looks the design allows: the planned rounds, LOOKS between, the cap. @param {AdaptiveOptions} opts */
export const looksOf = (opts) => lookSizes(opts).length;

/** Whether n samples a side is a look of the design. @param {number} n @param {AdaptiveOptions} opts */
export const isLook = (n, opts) => lookSizes(opts).includes(n);

/**
 * Which question gets the next sample, or null to stop: among the open decisions under the cap whose next
 * sample fits in what is left, the one cheapest to decide: the samples a side it is still expected to need
 * (samplesToDecide - n, at least 1; one more samples cannot decide counts as 1e6, so it comes last) times
 * what one more sample of it costs (a step of each of its sides under the cap, measured). A decided
 * question is never in the list. Gated decisions first, while one can take a sample. Ties go to the earlier
 * question (plan order).
 * @param {Question[]} questions the open ones @param {number} remainingMs @param {AdaptiveOptions} opts
 * @returns {Question | null}
 */
export function nextQuestion(questions, remainingMs, opts) {
  const runnable = (/** @type {Question} */ q) =>
    q.n < opts.maxIterations && q.cells.length > 0 && q.sampleMs <= remainingMs;
  const pool = questions.some((q) => q.gated && runnable(q)) ? questions.filter((q) => q.gated) : questions;
  let best = null;
  let bestCost = Infinity;
  for (const q of pool) {
    if (!runnable(q)) continue;
    const cost = costToDecide(q);
    if (best === null || cost < bestCost) {
      best = q;
      bestCost = cost;
    }
  }
  return best;
}

/** What deciding a question is expected to cost, in ms: samples a side still needed × a sample's cost. @param {Question} q */
export function costToDecide(q) {
  const samples = q.samplesToDecide === null ? 1e6 : Math.max(1, q.samplesToDecide - q.n);
  return samples * Math.max(1, q.sampleMs);
}

/**
 * Why a question stopped taking samples, as results record it (`run.questions`, and each cell's
 * `sampling.stopped`): decided, at the cap, or the budget could not pay for its next sample.
 * @param {{ n: number } | null} q the open decision, null when decided @param {AdaptiveOptions} opts
 * @returns {'decided' | 'iteration cap' | 'budget spent'}
 */
export function questionStop(q, opts) {
  if (q === null) return 'decided';
  return q.n >= opts.maxIterations ? 'iteration cap' : 'budget spent';
}

/**
 * A cell's reason to stop, from the questions it takes part in: decided when each of them is (or it has
 * none), else the budget when it stopped one of them, else the cap.
 * @param {Array<'decided' | 'iteration cap' | 'budget spent'>} reasons
 * @returns {'decided' | 'iteration cap' | 'budget spent'}
 */
export function cellStop(reasons) {
  if (reasons.includes('budget spent')) return 'budget spent';
  return reasons.includes('iteration cap') ? 'iteration cap' : 'decided';
}
