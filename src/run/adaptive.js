// Adaptive sampling (`run --budget`): after the planned iterations, keep adding interleaved iterations,
// one benchmark at a time, while the budget lasts, to the benchmarks whose comparisons against Docker (or
// the A/B's pair) are still furthest from being able to decide: to show a change of the metric's threshold
// T (src/model/change.js: 5% for CPU and memory, 10% otherwise), which is what a regression and an
// equivalence both need. Gated comparisons come first (the gate's metrics, src/reading/gate.js: by
// default the start-up a job pays, or a workload's job time): the rounds go to a benchmark with a gated
// comparison that cannot decide yet before any other, and such a benchmark is done only when every gated
// comparison of it can. Benchmarks with fewer than 5 samples a side come first, so every comparison
// becomes testable and every series can get a history verdict. Pure decisions here; src/run/runner.js
// runs the rounds.
//
// "Able to decide" is the minimum detectable change (src/stats/detectable.js): the smallest change the
// within-run test would flag (p < 0.05) 8 times in 10 with the samples so far, against T. A benchmark's
// need is, over its gated comparisons, the largest MDC / T; without one, a high quantile (75%) of MDC / T
// over its comparisons: done when three quarters of its metrics could show T (a few metrics, such as
// maximum latencies, are too noisy to ever get there and must not take the whole budget).
//
// Why the within-run tests stay valid: the rule looks only at the samples' spread (standard deviations of
// log samples), never at the difference between the sides, at a p-value or at an outcome (stopping once
// a comparison reads "regression" would be optional stopping, and raise the false regressions the reading
// promises to hold at 5%), and the test is run once, at the end. For a location shift the spread carries no information about the difference (for normal data
// the sample variance is independent of the sample mean), so stopping on it does not select runs that
// happen to show a difference: the test's false-positive rate holds. `npm run eval:detection` checks this
// by simulation (A/A: both sides from one distribution, sampled with this rule).
import { detectableWithinRun } from '../stats/detectable.js';
import { defaultThreshold } from '../model/change.js';

/**
 * @typedef {{ budgetMs: number, minChange: number, maxIterations: number, reserveMs: number, pair?: Pair }} AdaptiveOptions
 *   budgetMs: the whole run's wall-time budget; reserveMs: kept for provenance and teardown; pair: the A/B
 *   the rounds aim at, if any
 * @typedef {{ benchmark: string, need: number, roundMs: number, iterations: number, gated?: boolean }} BenchmarkState
 *   need: see needOf (Infinity while no test is possible); roundMs: what one more interleaved iteration of
 *   every cell of the benchmark costs (measured); iterations: measured so far; gated: the benchmark has a
 *   gated comparison (its need is then theirs)
 * @typedef {{ gated?: (benchmark: string, metric: string) => boolean, thresholdOf?: (benchmark: string, metric: string) => number }} Aim
 *   what the rounds aim at: the gate's metrics and each metric's T (default: minChange for every metric,
 *   no gate)
 */

/** @typedef {{ baseline: string, candidate: string }} Pair environment keys, e.g. dind@20.10 and dind@26.1 */

export const NEED_QUANTILE = 0.75;
/** Below this many samples a side a benchmark comes first: a history verdict needs 5 (DEFAULT_RULE.minSamples). */
export const MIN_SAMPLES = 5;
export const DEFAULT_MAX_ITERATIONS = 30;

/**
 * A benchmark's need from its cells' samples: for every cell judged against Docker (every environment but
 * docker and native, as the reading pairs them) and metric, the MDC against Docker's cell (same distro),
 * divided by the metric's T; metrics without a usable spread (a constant, a zero) are left out. Over the
 * gated comparisons the largest (each must be able to decide); else the 75th percentile.
 * @param {Array<{ environment: string, environmentKey: string, distro: string, benchmark?: string, metrics: Array<{ metric: string, samples: number[] }> }>} cells
 *   the benchmark's cells that are still running
 * @param {number} minChange T where `aim` gives none
 * @param {(n: number, m: number) => number} smallestP the smallest p-value the test can reach
 * @param {Pair} [pair] the two environments the run is an A/B of (`run --baseline --candidate`): the
 *   rounds aim at that comparison instead of each environment against Docker
 * @param {Aim} [aim]
 */
export function needOf(cells, minChange, smallestP, pair, aim = {}) {
  return needAndGate(cells, minChange, smallestP, pair, aim).need;
}

/**
 * needOf, and whether the benchmark has a gated comparison.
 * @param {Parameters<typeof needOf>[0]} cells @param {number} minChange
 * @param {(n: number, m: number) => number} smallestP @param {Pair} [pair] @param {Aim} [aim]
 */
export function needAndGate(cells, minChange, smallestP, pair, aim = {}) {
  const ratios = [];
  const gatedRatios = [];
  if (cells.some((c) => c.metrics.some((m) => m.samples.length < MIN_SAMPLES)))
    return { need: Infinity, gated: hasGated(cells, aim) };
  const candidates = pair
    ? cells.filter((c) => c.environmentKey === pair.candidate)
    : cells.filter((c) => c.environment !== 'docker' && c.environment !== 'native');
  for (const cand of candidates) {
    const baseKey = pair?.baseline ?? 'docker';
    const docker = cells.find((c) => c.environmentKey === baseKey && c.distro === cand.distro);
    if (!docker) continue;
    for (const m of cand.metrics) {
      const base = docker.metrics.find((x) => x.metric === m.metric);
      if (!base) continue;
      const bench = cand.benchmark ?? '';
      const threshold = aim.thresholdOf ? aim.thresholdOf(bench, m.metric) : minChange;
      const d = detectableWithinRun(base.samples, m.samples, { smallestP });
      const ratio =
        d.change === null && d.why.startsWith('no test')
          ? Infinity
          : d.change !== null && d.change > 0
            ? d.change / threshold
            : null;
      if (ratio === null) continue;
      ratios.push(ratio);
      if (aim.gated?.(bench, m.metric)) gatedRatios.push(ratio);
    }
  }
  if (gatedRatios.length) return { need: Math.max(...gatedRatios), gated: true };
  if (!ratios.length) return { need: 0, gated: false };
  // nearest rank, not interpolated: Infinity (no test possible yet) must stay Infinity
  return { need: ratios.sort((a, b) => a - b)[Math.ceil(NEED_QUANTILE * ratios.length) - 1], gated: false };
}

/** @param {Parameters<typeof needOf>[0]} cells @param {Aim} aim */
const hasGated = (cells, aim) =>
  Boolean(aim.gated) && cells.some((c) => c.metrics.some((m) => aim.gated?.(c.benchmark ?? '', m.metric)));

/** Each metric's T, as the reading judges it (the family's default). */
export const defaultAim = { thresholdOf: defaultThreshold };

/**
 * Which benchmark gets the next round, or null to stop: the one with the largest need per second among
 * those not done (need > 1), under the iteration cap, whose round fits in what is left of the budget.
 * Ties go to the earlier benchmark (plan order).
 * @param {BenchmarkState[]} states @param {number} remainingMs @param {AdaptiveOptions} opts
 * @returns {BenchmarkState | null}
 */
export function nextRound(states, remainingMs, opts) {
  // A gated comparison that cannot decide yet goes before everything else.
  const open = (/** @type {BenchmarkState} */ s) =>
    s.need > 1 && s.iterations < opts.maxIterations && s.roundMs <= remainingMs;
  const pool = states.some((s) => s.gated && open(s)) ? states.filter((s) => s.gated) : states;
  let best = null;
  let bestScore = -Infinity;
  for (const s of pool) {
    if (!open(s)) continue;
    // log(need): halving the MDC takes four times the samples, so equal steps of log need cost alike.
    const score = (Number.isFinite(s.need) ? Math.log(s.need) : 1e6) / Math.max(1, s.roundMs);
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Why a benchmark's cells stopped taking samples, as recorded in results.json (`sampling.stopped`).
 * @param {BenchmarkState} s @param {number} remainingMs @param {AdaptiveOptions} opts
 * @returns {'narrow enough' | 'iteration cap' | 'budget spent'}
 */
export function stopReason(s, remainingMs, opts) {
  if (s.need <= 1) return 'narrow enough';
  if (s.iterations >= opts.maxIterations) return 'iteration cap';
  return 'budget spent';
}
