// Adaptive sampling (`run --budget`): after the planned iterations, keep adding interleaved iterations,
// one benchmark at a time, while the budget lasts, to the benchmarks whose DinD-vs-Docker comparisons are
// still furthest from being able to show the change that matters (`minChange`); stop a benchmark once
// they can. Benchmarks with fewer than 5 samples a side come first, so every comparison becomes
// testable and every series can get a history verdict. Pure decisions here; src/run/runner.js runs the rounds.
//
// "Able to show the change that matters" is the minimum detectable change (src/stats/detectable.js): the
// smallest change the within-run test would flag (p < 0.05) 8 times in 10 with the samples so far. A
// benchmark's need is a high quantile (75%) of MDC / minChange over its DinD-vs-Docker metrics: a
// benchmark is done when three quarters of its metrics could show minChange (a few metrics, such as
// maximum latencies, are too noisy to ever get there and must not take the whole budget).
//
// Why the within-run tests stay valid: the rule looks only at the samples' spread (standard deviations of
// log samples), never at the difference between the sides or at a p-value, and the test is run once, at
// the end. For a location shift the spread carries no information about the difference (for normal data
// the sample variance is independent of the sample mean), so stopping on it does not select runs that
// happen to show a difference: the test's false-positive rate holds. `npm run eval:detection` checks this
// by simulation (A/A: both sides from one distribution, sampled with this rule).
import { detectableWithinRun } from '../stats/detectable.js';

/**
 * @typedef {{ budgetMs: number, minChange: number, maxIterations: number, reserveMs: number, pair?: Pair }} AdaptiveOptions
 *   budgetMs: the whole run's wall-time budget; reserveMs: kept for provenance and teardown; pair: the A/B
 *   the rounds aim at, if any
 * @typedef {{ benchmark: string, need: number, roundMs: number, iterations: number }} BenchmarkState
 *   need: 75th percentile of MDC / minChange (Infinity while no test is possible); roundMs: what one more
 *   interleaved iteration of every cell of the benchmark costs (measured); iterations: measured so far
 */

/** @typedef {{ baseline: string, candidate: string }} Pair environment keys, e.g. dind@20.10 and dind@26.1 */

export const NEED_QUANTILE = 0.75;
/** Below this many samples a side a benchmark comes first: a history verdict needs 5 (DEFAULT_RULE.minSamples). */
export const MIN_SAMPLES = 5;
export const DEFAULT_MAX_ITERATIONS = 30;

/**
 * A benchmark's need from its cells' samples: for every DinD cell and metric, the MDC against Docker's cell
 * (same distro), divided by minChange; metrics without a usable spread (a constant, a zero) are left out.
 * @param {Array<{ environment: string, environmentKey: string, distro: string, metrics: Array<{ metric: string, samples: number[] }> }>} cells
 *   the benchmark's cells that are still running
 * @param {number} minChange
 * @param {(n: number, m: number) => number} smallestP the smallest p-value the test can reach
 * @param {Pair} [pair] the two environments the run is an A/B of (`run --baseline --candidate`): the
 *   rounds aim at that comparison instead of DinD against Docker
 */
export function needOf(cells, minChange, smallestP, pair) {
  const ratios = [];
  if (cells.some((c) => c.metrics.some((m) => m.samples.length < MIN_SAMPLES))) return Infinity;
  const candidates = pair
    ? cells.filter((c) => c.environmentKey === pair.candidate)
    : cells.filter((c) => c.environment === 'dind' || c.environment === 'dind-vfs');
  for (const cand of candidates) {
    const baseKey = pair?.baseline ?? 'docker';
    const docker = cells.find((c) => c.environmentKey === baseKey && c.distro === cand.distro);
    if (!docker) continue;
    for (const m of cand.metrics) {
      const base = docker.metrics.find((x) => x.metric === m.metric);
      if (!base) continue;
      const d = detectableWithinRun(base.samples, m.samples, { smallestP });
      if (d.change === null && d.why.startsWith('no test')) ratios.push(Infinity);
      else if (d.change !== null && d.change > 0) ratios.push(d.change / minChange);
    }
  }
  if (!ratios.length) return 0;
  // nearest rank, not interpolated: Infinity (no test possible yet) must stay Infinity
  return ratios.sort((a, b) => a - b)[Math.ceil(NEED_QUANTILE * ratios.length) - 1];
}

/**
 * Which benchmark gets the next round, or null to stop: the one with the largest need per second among
 * those not done (need > 1), under the iteration cap, whose round fits in what is left of the budget.
 * Ties go to the earlier benchmark (plan order).
 * @param {BenchmarkState[]} states @param {number} remainingMs @param {AdaptiveOptions} opts
 * @returns {BenchmarkState | null}
 */
export function nextRound(states, remainingMs, opts) {
  let best = null;
  let bestScore = -Infinity;
  for (const s of states) {
    if (s.need <= 1 || s.iterations >= opts.maxIterations || s.roundMs > remainingMs) continue;
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
