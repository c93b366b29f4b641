// After the plan, with a budget: one interleaved round at a time (one more iteration of every running cell
// of one benchmark, in plan order), for the benchmark ./adaptive.js picks, until every benchmark is narrow
// enough, capped, or the budget cannot pay for another round. ./adaptive.js decides; this runs the rounds.
import { smallestMannWhitneyP } from '../results/within-run.js';
import { gateFor } from '../reading/gate.js';
import { defaultAim, needAndGate, nextRound, stopReason } from './adaptive.js';
import { addRoundTime, runGuarded } from './steps.js';

/**
 * @typedef {import('./cells.js').CellResult} CellResult
 * @typedef {import('./adaptive.js').AdaptiveOptions & { startedAt: number, over?: boolean }} RoundOptions
 *   startedAt: when the run began (performance.now()), so the budget counts image builds and setup too;
 *   over: the planned rounds were said to go past the budget (./budget.js): no round after them
 */

/**
 * Each cell records how many iterations it got and why it stopped.
 * @param {ReturnType<typeof import('./plan.js').makePlan>} plan
 * @param {Map<string, import('./runner.js').Environment>} envs
 * @param {Map<string, CellResult>} cells @param {import('./runner.js').RunContext} run
 * @param {RoundOptions} opts
 * @param {() => Promise<void>} save writes the partial results after each step
 */
export async function runAdaptiveRounds(plan, envs, cells, run, opts, save) {
  const order = [...new Set(plan.cells.map((c) => c.benchmark))];
  const cellsOf = (/** @type {string} */ b) =>
    plan.cells
      .filter((c) => c.benchmark === b)
      .map((c) => ({ key: c.key, cell: /** @type {CellResult} */ (cells.get(c.key)) }));
  const remaining = () => opts.startedAt + opts.budgetMs - opts.reserveMs - performance.now();
  for (;;) {
    if (run.tracker.closing || run.engines?.lost) break;
    const states = order
      .filter((b) => cellsOf(b).some((x) => x.cell.status === 'pending'))
      .map((b) => stateOf(b, cellsOf(b), run, opts));
    const next = opts.over ? null : nextRound(states, remaining(), opts);
    if (!next) {
      undecided(states, run);
      for (const s of states)
        for (const x of cellsOf(s.benchmark))
          if (x.cell.sampling?.stopped !== 'left out for the budget')
            x.cell.sampling = { iterations: s.iterations, stopped: stopReason(s, remaining(), opts) };
      break;
    }
    const need = Number.isFinite(next.need) ? next.need.toFixed(2) : 'a testable sample';
    run.log(
      `adaptive: ${next.benchmark} round ${next.iterations + 1} (need ${need}, about ${Math.round(next.roundMs / 1000)} s, ${Math.round(remaining() / 1000)} s left)`,
    );
    for (const { key, cell } of cellsOf(next.benchmark)) {
      if (run.tracker.closing || run.engines?.lost || cell.status !== 'pending') continue;
      const env = /** @type {import('./runner.js').Environment} */ (envs.get(cell.environmentKey));
      const t0 = performance.now();
      await runGuarded({ cell: key, iteration: next.iterations, warmup: false }, cell, env, run, `[adaptive] ${key}`);
      addRoundTime(run, cell.benchmark, next.iterations, performance.now() - t0);
      await save();
    }
  }
}

/**
 * When the rounds end with a gated comparison that still cannot decide, say so, with about how many
 * samples a side would let it (the MDC shrinks as 1/sqrt(n), so n times need squared).
 * @param {import('./adaptive.js').BenchmarkState[]} states @param {import('./runner.js').RunContext} run
 */
function undecided(states, run) {
  for (const s of states.filter((x) => x.gated && x.need > 1)) {
    const would = Number.isFinite(s.need)
      ? `about ${Math.ceil(s.iterations * s.need ** 2).toLocaleString('en')}`
      : 'at least 5';
    run.log(
      `adaptive: the budget could not make ${s.benchmark}'s gated comparisons able to decide (they see ${Number.isFinite(s.need) ? `${s.need.toFixed(1)} times` : 'far more than'} their threshold, ${s.iterations} samples a side): ${would} samples a side would`,
    );
  }
}

/**
 * Where one benchmark stands: how far its comparisons are from being able to decide, what a round of it
 * costs now, and how many iterations its running cells have.
 * @param {string} benchmark @param {{cell: CellResult}[]} mine its cells
 * @param {import('./runner.js').RunContext} run @param {RoundOptions} opts
 * @returns {import('./adaptive.js').BenchmarkState}
 */
function stateOf(benchmark, mine, run, opts) {
  const running = mine.filter((x) => x.cell.status === 'pending');
  const rounds = (run.roundMs.get(benchmark) ?? []).filter((x) => x !== undefined);
  // The gate's metrics, as the reading will judge them (its default: what a job pays, where measured).
  const metrics = running.flatMap((x) => x.cell.metrics.map((m) => ({ benchmark, metric: m.metric })));
  const aim = { ...defaultAim, gated: gateFor([], metrics).gated };
  const { need, gated } = needAndGate(
    running.map((x) => x.cell),
    opts.minChange,
    smallestMannWhitneyP,
    opts.pair,
    aim,
  );
  return {
    benchmark,
    need,
    gated,
    // the newest rounds describe the machine as it is now
    roundMs: rounds.length ? rounds.slice(-3).reduce((a, x) => a + x, 0) / Math.min(3, rounds.length) : Infinity,
    iterations: Math.max(0, ...running.map((x) => x.cell.metrics[0]?.samples.length ?? 0)),
  };
}
