// After the plan, with a budget: one sample at a time for the open question ./adaptive.js picks (the
// cheapest to decide): one more iteration of each of its two sides under the cap, interleaved in plan
// order, until every decision is decided, capped, or the budget cannot pay for the next sample. Decisions
// are read at the design's looks only (./adaptive.js isLook). At the end each question records its samples
// and why it stopped (results run.questions), and each cell its own (sampling). ./adaptive.js decides; this
// runs the rounds.
import { gateFor } from '../reading/gate.js';
import {
  cellStop,
  decisionPairs,
  decisionsOf,
  isLook,
  nextQuestion,
  questionStop,
  runLevel,
  sideOf,
} from './adaptive.js';
import { cellKey } from './plan.js';
import { addCellTime, addRoundTime, runGuarded } from './steps.js';

/**
 * @typedef {import('./cells.js').CellResult} CellResult
 * @typedef {import('./adaptive.js').AdaptiveOptions & { startedAt: number, over?: boolean, replan?: Replanning }} RoundOptions
 *   startedAt: when the run began (performance.now()), so the budget counts image builds and setup too;
 *   over: the planned rounds were said to go past the budget (./budget.js): no round after them;
 *   replan: the plan is re-made after each cell's first iteration (./replan.js, ./steps.js)
 * @typedef {{ cells: import('./budget.js').PlanCell[], estimates: number[], record: Replanned[], said?: boolean, remadeS?: number }} Replanning
 *   cells: the pending cells at plan time, as the budget judged them; estimates: each step's calibrated
 *   estimate, in plan order; record: each re-plan that left cells out; said: the re-made plan's time was
 *   said; remadeS: that time, from the start of the run
 * @typedef {{ after: string, remainingS: number, leftS: number, dropped: string[], why: string }} Replanned
 */

/**
 * Each question records its samples and why it stopped (run.questions), each cell its iterations and why.
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
  /** @type {Map<string, number>} samples a side each decided question had when it was decided */
  const decidedAt = new Map();
  for (;;) {
    if (run.tracker.closing || run.engines?.lost) break;
    const questions = order
      .filter((b) => all().some((c) => c.benchmark === b && c.status === 'pending'))
      .flatMap((b) => questionsOf(b, all(), run, { ...opts, gated }, level, memo, decidedAt));
    const next = opts.over ? null : nextQuestion(questions, remaining(), opts);
    if (!next) {
      undecided(questions, run);
      run.questions = recordStops(questions, decidedAt, all(), opts);
      break;
    }
    const would =
      next.samplesToDecide === null
        ? 'more samples may not decide it'
        : `about ${next.samplesToDecide} samples a side would decide it`;
    run.log(
      `sampling: ${next.benchmark} ${next.metric}, ${next.candidate} against ${next.baseline}, sample ${next.n + 1} (${would}; ${next.cells.length} cell(s), about ${Math.round(next.sampleMs / 1000)} s, ${Math.round(remaining() / 1000)} s left)`,
    );
    for (const cell of all().filter((c) => c.benchmark === next.benchmark)) {
      if (run.tracker.closing || run.engines?.lost || cell.status !== 'pending') continue;
      if (!next.cells.includes(sideOf(cell))) continue;
      const key = cellKey(cell.benchmark, cell.environmentKey, cell.distro);
      const env = /** @type {import('./runner.js').Environment} */ (envs.get(cell.environmentKey));
      const iteration = samplesOf(cell);
      const t0 = performance.now();
      await runGuarded({ cell: key, iteration, warmup: false }, cell, env, run, `[sampling] ${key}`);
      addRoundTime(run, cell.benchmark, iteration, performance.now() - t0);
      addCellTime(run, key, performance.now() - t0);
      await save();
    }
  }
}

/** Measured iterations a cell has. @param {any} cell */
const samplesOf = (cell) => cell.metrics[0]?.samples.length ?? 0;

/** A question's key, as the memo has it. @param {{ metric: string, baseline: string, candidate: string }} q */
const keyOf = (q) => `${q.metric} ${q.baseline} ${q.candidate}`;

/**
 * One benchmark's open questions (each read again at its looks only, ./adaptive.js decisionsOf), with what
 * one more sample of each costs now: a step of each side still pending and under the cap. The decided
 * ones are noted with the samples they had when first seen decided.
 * @param {string} benchmark @param {CellResult[]} all every cell
 * @param {import('./runner.js').RunContext} run @param {RoundOptions} opts @param {(n: number) => number} level the level at n samples a side
 * @param {Map<string, import('./adaptive.js').OpenDecision | null>} memo @param {Map<string, number>} decidedAt
 * @returns {import('./adaptive.js').Question[]}
 */
function questionsOf(benchmark, all, run, opts, level, memo, decidedAt) {
  const mine = all.filter((c) => c.benchmark === benchmark);
  const { open, settled } = decisionsOf(benchmark, mine, {
    level,
    pair: opts.pair,
    thresholdOf: opts.thresholdOf,
    gated: opts.gated,
    isLook: (n) => isLook(n, opts),
    memo,
  });
  for (const d of settled) if (!decidedAt.has(keyOf(d))) decidedAt.set(keyOf(d), d.n);
  return open.map((d) => {
    const sides = mine.filter(
      (c) =>
        c.status === 'pending' &&
        (sideOf(c) === d.baseline || sideOf(c) === d.candidate) &&
        samplesOf(c) < opts.maxIterations,
    );
    return {
      ...d,
      benchmark,
      sampleMs: sides.length ? sides.reduce((s, c) => s + recentMs(run, c), 0) : Infinity,
      cells: sides.map(sideOf),
    };
  });
}

/** What one more step of a cell costs now: the mean of its newest three measured steps. @param {import('./runner.js').RunContext} run @param {CellResult} cell */
function recentMs(run, cell) {
  const key = cellKey(cell.benchmark, cell.environmentKey, cell.distro);
  const times = (run.cellMs?.get(key) ?? []).slice(-3);
  return times.length ? times.reduce((a, x) => a + x, 0) / times.length : Infinity;
}

/**
 * Why sampling stopped, per question (returned, for results run.questions) and per cell (its `sampling`):
 * a question decided, at the cap, out of budget, or not asked because a side was left out for the budget;
 * a cell decided when each question it takes part in is (./adaptive.js cellStop).
 * @param {import('./adaptive.js').Question[]} open the questions still open
 * @param {Map<string, number>} decidedAt @param {CellResult[]} all every cell @param {RoundOptions} opts
 * @returns {import('./adaptive.js').QuestionRecord[]}
 */
function recordStops(open, decidedAt, all, opts) {
  const leftOut = (/** @type {any} */ c) => c.sampling?.stopped === 'left out for the budget';
  // Every question the run asked, a left-out cell's too (read as if it had run, to name it).
  const asked = decisionPairs(
    all.map((c) => (leftOut(c) ? { ...c, status: 'ok' } : c)),
    opts.pair,
  );
  /** @type {import('./adaptive.js').QuestionRecord[]} */
  const records = [];
  /** @type {Map<string, Array<'decided' | 'iteration cap' | 'budget spent'>>} */
  const byCell = new Map();
  for (const d of asked) {
    const benchmark = d.pair.candidate.benchmark;
    const q = { metric: d.metric, baseline: sideOf(d.pair.baseline), candidate: sideOf(d.pair.candidate) };
    const n = Math.min(samplesOf(d.pair.baseline), samplesOf(d.pair.candidate));
    if (leftOut(d.pair.baseline) || leftOut(d.pair.candidate)) {
      records.push({ benchmark, ...q, samples: n, stopped: 'left out for the budget' });
      continue;
    }
    const still = open.find((o) => o.benchmark === benchmark && keyOf(o) === keyOf(q)) ?? null;
    if (!still && !decidedAt.has(keyOf(q))) continue; // a side no longer runs (failed): no decision to sample
    const stopped = questionStop(still, opts);
    records.push({ benchmark, ...q, samples: still ? still.n : (decidedAt.get(keyOf(q)) ?? n), stopped });
    for (const side of [q.baseline, q.candidate]) {
      const k = `${benchmark} ${side}`;
      byCell.set(k, [...(byCell.get(k) ?? []), stopped]);
    }
  }
  for (const c of all) {
    if (c.status !== 'pending' || leftOut(c)) continue;
    c.sampling = { iterations: samplesOf(c), stopped: cellStop(byCell.get(`${c.benchmark} ${sideOf(c)}`) ?? []) };
  }
  return records;
}

/**
 * When the rounds end with a gated decision still open, say so, with about how many samples a side would
 * decide it.
 * @param {import('./adaptive.js').Question[]} open @param {import('./runner.js').RunContext} run
 */
function undecided(open, run) {
  for (const d of open.filter((x) => x.gated)) {
    const would = d.samplesToDecide
      ? `about ${d.samplesToDecide.toLocaleString('en')}`
      : 'more than the runner can give';
    run.log(
      `sampling: ${d.benchmark} ${d.metric}, ${d.candidate} against ${d.baseline}, is still inconclusive at ${d.n} samples a side: ${would} samples a side would decide it`,
    );
  }
}
