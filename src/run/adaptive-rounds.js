// After the plan, with a budget: one interleaved round at a time (one more iteration of each running cell
// of one benchmark that an open decision needs, in plan order), for the benchmark ./adaptive.js picks,
// until every decision is decided, capped, or the budget cannot pay for another round. Decisions are read
// at the design's looks only (./adaptive.js isLook). ./adaptive.js decides; this runs the rounds.
import { gateFor } from '../reading/gate.js';
import { decisionsOf, isLook, nextRound, runLevel, sideOf, stopReason } from './adaptive.js';
import { cellKey } from './plan.js';
import { addCellTime, addRoundTime, runGuarded } from './steps.js';

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
  const all = () => [...cells.values()];
  const remaining = () => opts.startedAt + opts.budgetMs - opts.reserveMs - performance.now();
  // The gate's metrics, as the reading will judge them (its default: what a job pays, where measured).
  const gated =
    opts.gated ??
    gateFor(
      [],
      all().flatMap((c) => c.metrics.map((m) => ({ benchmark: c.benchmark, metric: m.metric }))),
    ).gated;
  const level = runLevel(all(), opts);
  /** @type {Map<string, import('./adaptive.js').OpenDecision | null>} each decision as read at its latest look */
  const memo = new Map();
  for (;;) {
    if (run.tracker.closing || run.engines?.lost) break;
    const states = order
      .filter((b) => all().some((c) => c.benchmark === b && c.status === 'pending'))
      .map((b) => stateOf(b, all(), run, { ...opts, gated }, level, memo));
    const next = opts.over ? null : nextRound(states, remaining(), opts);
    if (!next) {
      undecided(states, run);
      recordStops(states, all(), remaining(), opts);
      break;
    }
    const nearest = Math.min(...next.open.map((d) => d.samplesToDecide ?? Infinity));
    run.log(
      `sampling: ${next.benchmark} round ${next.iterations + 1} for ${next.open.length} open decision(s) (${Number.isFinite(nearest) ? `about ${nearest} samples a side would decide the nearest` : 'more samples may not decide them'}; ${next.cells.length} cells, about ${Math.round(next.roundMs / 1000)} s, ${Math.round(remaining() / 1000)} s left)`,
    );
    for (const cell of all().filter((c) => c.benchmark === next.benchmark)) {
      if (run.tracker.closing || run.engines?.lost || cell.status !== 'pending') continue;
      if (!next.cells.includes(sideOf(cell))) continue;
      const key = cellKey(cell.benchmark, cell.environmentKey, cell.distro);
      const env = /** @type {import('./runner.js').Environment} */ (envs.get(cell.environmentKey));
      const t0 = performance.now();
      await runGuarded({ cell: key, iteration: next.iterations, warmup: false }, cell, env, run, `[sampling] ${key}`);
      addRoundTime(run, cell.benchmark, next.iterations, performance.now() - t0);
      addCellTime(run, key, performance.now() - t0);
      await save();
    }
  }
}

/**
 * Where one benchmark stands: its decisions (each read again at its looks only, ./adaptive.js decisionsOf),
 * which running cells they need, what a round of those costs now, and how many samples a side the nearest
 * open decision has.
 * @param {string} benchmark @param {CellResult[]} all every cell
 * @param {import('./runner.js').RunContext} run @param {RoundOptions} opts @param {number} level
 * @param {Map<string, import('./adaptive.js').OpenDecision | null>} memo
 * @returns {import('./adaptive.js').BenchmarkState}
 */
function stateOf(benchmark, all, run, opts, level, memo) {
  const mine = all.filter((c) => c.benchmark === benchmark);
  const { open, decided } = decisionsOf(benchmark, mine, {
    level,
    pair: opts.pair,
    thresholdOf: opts.thresholdOf,
    gated: opts.gated,
    isLook: (n) => isLook(n, opts),
    memo,
  });
  const needed = new Set(open.flatMap((d) => [d.baseline, d.candidate]));
  const cells = mine.filter((c) => c.status === 'pending' && needed.has(sideOf(c)));
  return {
    benchmark,
    open,
    decided,
    gated: open.some((d) => d.gated),
    roundMs: cells.length ? cells.reduce((s, c) => s + recentMs(run, c), 0) : Infinity,
    iterations: open.length ? Math.min(...open.map((d) => d.n)) : 0,
    cells: cells.map(sideOf),
  };
}

/** What one more step of a cell costs now: the mean of its newest three measured steps. @param {import('./runner.js').RunContext} run @param {CellResult} cell */
function recentMs(run, cell) {
  const key = cellKey(cell.benchmark, cell.environmentKey, cell.distro);
  const times = (run.cellMs?.get(key) ?? []).slice(-3);
  return times.length ? times.reduce((a, x) => a + x, 0) / times.length : Infinity;
}

/**
 * Each running cell's `sampling`: its iterations, and why it stopped: its benchmark's reason when an open
 * decision needed it, else "decided" (every decision it takes part in was made, or it has none).
 * @param {import('./adaptive.js').BenchmarkState[]} states @param {CellResult[]} all @param {number} remainingMs @param {RoundOptions} opts
 */
function recordStops(states, all, remainingMs, opts) {
  for (const s of states)
    for (const c of all.filter((x) => x.benchmark === s.benchmark)) {
      if (c.sampling?.stopped === 'left out for the budget') continue;
      const iterations = c.metrics[0]?.samples.length ?? 0;
      c.sampling = { iterations, stopped: s.cells.includes(sideOf(c)) ? stopReason(s, remainingMs, opts) : 'decided' };
    }
}

/**
 * When the rounds end with a gated decision still open, say so, with about how many samples a side would
 * decide it.
 * @param {import('./adaptive.js').BenchmarkState[]} states @param {import('./runner.js').RunContext} run
 */
function undecided(states, run) {
  for (const s of states)
    for (const d of s.open.filter((x) => x.gated)) {
      const would = d.samplesToDecide
        ? `about ${d.samplesToDecide.toLocaleString('en')}`
        : 'more than the runner can give';
      run.log(
        `sampling: ${s.benchmark} ${d.metric}, ${d.candidate} against ${d.baseline}, is still inconclusive at ${s.iterations} samples a side: ${would} samples a side would decide it`,
      );
    }
}
