// Running the plan's steps: one iteration (or warm-up) of one cell at a time, in the plan's interleaved
// order. A step that fails or times out makes its cell "failed" with the reason and the run goes on; a
// resumed run skips the steps its cells had finished.
import { decisionOf } from '../model/decisions.js';
import { decidedIn } from '../model/environments.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withTimeout } from '../engine/containers.js';
import { UnavailableError } from '../benchmarks/benchmark.js';
import { leaveOut, markFailed, markUnavailable, record, reopen } from './cells.js';
import { paramsFor } from './params.js';
import { BudgetError, overMessage } from './budget.js';
import { allMeasured, observedScale, remainingByCell, replan } from './replan.js';
import { duration } from './progress.js';
import { killWatch, stepLabel } from './kills.js';
import { faultNotes } from './fault-notes.js';
import { logText } from '../text/escape.js';
import { scrubSecrets } from '../redact/secrets.js';

/** How many lines of a failed step's output the terminal shows (report.md shows more, results.json keeps more). */
const TERMINAL_TAIL_LINES = 12;

/**
 * @typedef {import('./cells.js').CellResult} CellResult
 * @typedef {import('./runner.js').Environment} Environment
 * @typedef {import('./runner.js').RunContext} RunContext
 */

/**
 * Runs the plan's steps in order (interleaved by the plan); cells that are no longer pending are skipped.
 * Stops starting new steps once the run is interrupted.
 * @param {import('./plan.js').PlannedStep[]} steps @param {Map<string, Environment>} envs
 * @param {Map<string, CellResult>} cells @param {RunContext} run
 * @param {() => Promise<void>} [save] writes the partial results after each step
 */
export async function runPlannedSteps(steps, envs, cells, run, save = async () => {}) {
  const index = indexWithinCell(steps);
  const willRun = (/** @type {number} */ i) => cells.get(steps[i].cell)?.status === 'pending';
  for (const [i, step] of steps.entries()) {
    const cell = /** @type {CellResult} */ (cells.get(step.cell));
    if (cell.status === 'pending' && index[i] < (cell.stepsDone ?? 0)) run.progress.skip(i);
  }
  for (const [i, step] of steps.entries()) {
    if (run.tracker.closing || run.engines?.lost) break; // interrupted: start nothing new
    if (run.budget) keepWithinBudget(steps, i, cells, run, run.budget);
    const cell = /** @type {CellResult} */ (cells.get(step.cell));
    if (cell.status !== 'pending' || index[i] < (cell.stepsDone ?? 0)) continue;
    const env = /** @type {Environment} */ (envs.get(cell.environmentKey));
    const t0 = performance.now();
    const ok = await runGuarded(step, cell, env, run, `[${i + 1}/${steps.length}] ${step.cell}`, () => {
      run.progress.finished(i, (performance.now() - t0) / 1000);
      return ` ${run.progress.note(willRun)}`;
    });
    if (run.engines?.lost) break; // the cell stays pending: `run --resume` runs this step once the engine is back
    if (ok) cell.stepsDone = (cell.stepsDone ?? 0) + 1;
    await save();
    // What a round costs: the measured steps of one iteration of every cell of the benchmark, summed.
    if (!step.warmup) addRoundTime(run, cell.benchmark, step.iteration, performance.now() - t0);
    if (!step.warmup) addCellTime(run, step.cell, performance.now() - t0);
    if (ok && !step.warmup && step.iteration === 0 && run.budget?.replan) {
      replanAfterFirst(steps, i + 1, cells, run, run.budget, run.budget.replan);
    }
  }
}

/**
 * After a cell's first measured iteration: its estimate becomes what that iteration took, and the plan is
 * re-made (./replan.js): default cells that no longer fit are left out now, named, with why, and recorded
 * (results run.replans); when what is kept still does not fit, the run says it goes over, once (stops with
 * --budget-strict). Once every cell left has its own time, the run says the re-made plan's time, once.
 * @param {import('./plan.js').PlannedStep[]} steps @param {number} from the next step
 * @param {Map<string, CellResult>} cells @param {RunContext} run @param {NonNullable<RunContext['budget']>} budget
 * @param {NonNullable<NonNullable<RunContext['budget']>['replan']>} rp
 */
function replanAfterFirst(steps, from, cells, run, budget, rp) {
  const pending = (/** @type {string} */ k) => cells.get(k)?.status === 'pending';
  const measured = run.cellMs ?? new Map();
  const scale = observedScale(steps, rp.estimates, measured);
  const remaining = remainingByCell(steps, from, rp.estimates, measured, pending, scale);
  const leftS = (budget.startedAt + budget.budgetMs - budget.reserveMs - performance.now()) / 1000;
  const budgetS = Math.round(budget.budgetMs / 1000);
  const r = budget.over ? null : replan(rp.cells, remaining, leftS);
  const after = steps[from - 1].cell;
  if (r?.dropped.length) {
    const keys = r.dropped.map((c) => c.key);
    const why = `its planned rounds no longer fit in the run's budget of ${budgetS} s once the cells that ran had their own first iteration's time: the profile added it by default (not named on the command line)`;
    for (const k of keys)
      leaveOut(/** @type {CellResult} */ (cells.get(k)), `left out after ${after}'s first iteration: ${why}`);
    rp.record.push({ after, remainingS: round1(r.remainingS), leftS: round1(Math.max(0, leftS)), dropped: keys, why });
    run.log(
      `re-plan: after ${after}'s first iteration the planned rounds left need about ${Math.round(r.remainingS)} s${scaleNote(scale)}, ${Math.max(0, Math.round(leftS))} s are left of ${budgetS} s: leaving out ${keys.length} cell(s) the profile added by default, about ${Math.round(r.remainingS - r.keptS)} s: ${keys.join(', ')}`,
    );
  }
  if (r && !r.fits) {
    const over = overMessage({ needS: r.keptS, leftS }, budgetS);
    if (budget.strict) throw new BudgetError(`${over}; stopped (--budget-strict)`);
    budget.over = true;
    run.log(
      `${over}: this machine is slower than the plan's estimates. What is kept (what was named, the start-up a job pays) keeps its planned rounds; the run goes over its budget and takes no adaptive rounds`,
    );
  }
  const left = [...cells].filter(([, c]) => c.status === 'pending').map(([k]) => k);
  if (!rp.said && allMeasured(left, measured)) {
    rp.said = true;
    const restS = [...remainingByCell(steps, from, rp.estimates, measured, pending).values()].reduce(
      (a, b) => a + b,
      0,
    );
    const elapsedS = (performance.now() - budget.startedAt) / 1000;
    rp.remadeS = round1(elapsedS + restS);
    run.log(
      `re-plan: from each cell's first iteration, the planned rounds left take about ${duration(restS)}: the run's planned rounds end at about ${duration(elapsedS + restS)} of its budget of ${duration(budget.budgetMs / 1000)} (then samples where a decision is still open, while the budget lasts)`,
    );
  }
}

const round1 = (/** @type {number} */ x) => Math.round(x * 10) / 10;

/**
 * What the re-plan line says of the cells not measured yet, when they are planned off their estimates.
 * @param {number} scale observedScale
 */
const scaleNote = (scale) =>
  Math.abs(scale - 1) < 0.05
    ? ''
    : ` (the cells not measured yet at ${scale.toFixed(2)}x their estimates, as the cells measured so far ran)`;

/**
 * Before step `from`, at the start of a round: when the planned rounds left are projected past what is left
 * of the budget (a machine slower than the plan's estimates), say so once; every cell left keeps its planned
 * rounds (what to leave out was decided at plan time, ./budget.js, and after each cell's first iteration,
 * replanAfterFirst), and the adaptive rounds get nothing.
 * With --budget-strict the run stops there instead, its partial results resumable. A cell that has run
 * here is costed by what its steps took, one not started yet by the plan's estimate.
 * @param {import('./plan.js').PlannedStep[]} steps @param {number} from
 * @param {Map<string, CellResult>} cells @param {RunContext} run @param {NonNullable<RunContext['budget']>} budget
 */
function keepWithinBudget(steps, from, cells, run, budget) {
  // At the start of a round (each cell's previous round measured), never mid-round.
  const prev = steps[from - 1];
  const roundStart = !prev || prev.iteration !== steps[from].iteration || prev.warmup !== steps[from].warmup;
  if (!run.progress.measured || !roundStart || budget.over) return;
  // Until every cell has its own first iteration, the re-plan after each is what judges (and may leave
  // default cells out); this projection must not pre-empt it.
  if (budget.replan && !budget.replan.said) return;
  let needS = 0;
  for (let j = from; j < steps.length; j++) {
    if (cells.get(steps[j].cell)?.status === 'pending') needS += run.progress.secondsOf(j, { extrapolate: false });
  }
  const leftS = (budget.startedAt + budget.budgetMs - budget.reserveMs - performance.now()) / 1000;
  if (needS <= leftS) return;
  const over = overMessage({ needS, leftS }, budget.budgetMs / 1000);
  if (budget.strict) throw new BudgetError(`${over}; stopped (--budget-strict)`);
  budget.over = true;
  run.log(
    `${over}: this machine is slower than the plan's estimates. Every cell left keeps its planned rounds (after the first round nothing is left out); the run goes over its budget and takes no adaptive rounds`,
  );
}

/**
 * For each step, how many steps of its cell come before it: a step whose number is below the cell's
 * stepsDone was finished by an earlier attempt.
 * @param {import('./plan.js').PlannedStep[]} steps
 */
function indexWithinCell(steps) {
  /** @type {Map<string, number>} steps of each cell met so far */
  const seen = new Map();
  return steps.map((s) => {
    const n = seen.get(s.cell) ?? 0;
    seen.set(s.cell, n + 1);
    return n;
  });
}

/** What each measured step of a cell took: what a round of only some cells costs. @param {RunContext} run @param {string} cell @param {number} ms */
export function addCellTime(run, cell, ms) {
  if (!run.cellMs) run.cellMs = new Map();
  run.cellMs.set(cell, [...(run.cellMs.get(cell) ?? []), ms]);
}

/** @param {RunContext} run @param {string} benchmark @param {number} iteration @param {number} ms */
export function addRoundTime(run, benchmark, iteration, ms) {
  const rounds = run.roundMs.get(benchmark) ?? [];
  rounds[iteration] = (rounds[iteration] ?? 0) + ms;
  run.roundMs.set(benchmark, rounds);
}

/**
 * One step with its engines checked (./engine-watch.js): before it, and again after it failed. A step that
 * failed because an engine went away is not the benchmark's failure: once the engine is back (or the
 * environment re-created) it runs again; when the engine does not come back the cell stays pending and the
 * run stops as interrupted. A step killed while every engine answered runs once more (./kills.js).
 * Same arguments as runOneStep.
 * @param {import('./plan.js').PlannedStep} step @param {CellResult} cell @param {Environment} env
 * @param {RunContext} run @param {string} progress @param {() => string} [eta]
 * @returns {Promise<boolean>} true when the step is done: its metrics recorded, or (killed twice) its
 *   failure recorded as the iteration's while the cell goes on
 */
export async function runGuarded(step, cell, env, run, progress, eta) {
  const watch = run.engines;
  const ready = () => run.environments.filter((e) => e.status === 'ok').map((e) => e.key);
  const kills = killWatch(cell, step, run.log, progress);
  /** @type {unknown} */
  let error;
  // Up to two engine recoveries, and one more run after a kill.
  for (let attempt = 0; attempt < 4; attempt++) {
    if (watch && (await watch.check(cell.environmentKey, progress, ready())) === 'lost') return false;
    if (await runOneStep(step, cell, env, run, progress, eta, (e) => (error = e))) {
      kills.measured();
      return true;
    }
    // Interrupted: the cleanup took the engines away, nothing to recover.
    if (cell.status !== 'failed' || run.tracker.closing) return false;
    const after = watch ? await watch.check(cell.environmentKey, progress, ready()) : 'ok';
    if (after === 'ok') {
      // Every engine answers: the benchmark's own failure, unless a kill from outside ended it.
      const outcome = kills.failed(error);
      if (outcome === 'retry') continue;
      return outcome === 'iteration lost';
    }
    reopen(cell);
    if (after === 'lost') return false;
  }
  return false;
}

/**
 * One iteration (or warm-up) of one cell: measure, then record the metrics, or record why it failed.
 * @param {import('./plan.js').PlannedStep} step @param {CellResult} cell @param {Environment} env
 * @param {RunContext} run @param {string} progress the log line's prefix
 * @param {() => string} [eta] marks the step finished, and gives the log line's suffix (elapsed, ETA)
 * @param {(e: unknown) => void} [onError] given the error of a step that failed
 * @returns {Promise<boolean>} true when the step's metrics were recorded
 */
export async function runOneStep(step, cell, env, run, progress, eta = () => '', onError = () => {}) {
  const { profile, log } = run;
  const label = stepLabel(step);
  const ctx = measureContext(step, cell, run);
  const t0 = performance.now();
  try {
    // Safety net over the per-step timeouts inside measure(); a benchmark with limits of its own (a
    // workload's job) gets at least those.
    const bench = run.benchmarks[cell.benchmark];
    const limit = Math.max(profile.stepTimeoutMs * 10, bench.timeLimitMs ?? 0);
    const metrics = await withTimeout(bench.measure(env, ctx), limit, `no result after ${limit} ms`);
    requireDecisions(cell, metrics);
    record(cell, metrics, step.warmup);
    log(`${progress} ${label}: ${metrics.length} metrics in ${Math.round(performance.now() - t0)} ms${eta()}`);
    return true;
  } catch (e) {
    if (e instanceof UnavailableError) {
      markUnavailable(cell, `${cell.benchmark} in ${cell.environmentKey}: ${e.message}`);
      log(`${progress} ${label}: unavailable: ${e.message}${eta()}`);
      return false;
    }
    markFailed(cell, e, label, ctx.currentStep(), profile);
    cell.reason += await faultNotes(String(cell.reason), env, run.tracker, cell.environmentKey);
    onError(e);
    log(`${progress} ${label}: FAILED: ${cell.reason}${eta()}`);
    // What the failing command said last (a job's step: stderr first), bounded, each line escaped.
    const tail = (cell.logTail ?? '').trimEnd().split('\n').filter(Boolean);
    if (tail.length)
      log(
        tail
          .slice(0, TERMINAL_TAIL_LINES)
          .map((l) => `    ${logText(l.slice(0, 300))}`)
          .join('\n'),
      );
    return false;
  }
}

/**
 * What measure() is given for one step: its image and parameters, and where raw output and series go.
 * @param {import('./plan.js').PlannedStep} step @param {CellResult} cell @param {RunContext} run
 * @returns {import('../benchmarks/benchmark.js').MeasureContext & {currentStep: () => string | undefined}}
 *   currentStep: the name of the last raw output saved, the step a failure is blamed on when the error names none
 */
function measureContext(step, cell, run) {
  const rawDir = path.join(run.outDir, 'raw', cell.benchmark, cell.environmentKey, cell.distro);
  const prefix = step.warmup ? 'warmup' : String(step.iteration + 1).padStart(2, '0');
  /** @type {string | undefined} */
  let currentStep;
  return {
    image: cell.image ?? '',
    params: paramsFor(cell.benchmark, run.profile.name, run.paramOverrides, run.benchmarks),
    timeoutMs: run.profile.stepTimeoutMs,
    saveRaw: async (name, text) => {
      currentStep = name;
      await mkdir(rawDir, { recursive: true });
      const file = path.join(rawDir, `${prefix}-${name}.txt`);
      // What a tool printed may hold a secret of the run (a build that echoes its secret): never kept.
      await writeFile(file, scrubSecrets(text));
      // A step run once more (after a kill) writes the same files again.
      const rel = path.relative(run.outDir, file);
      if (!cell.raw.includes(rel)) cell.raw.push(rel);
    },
    // Series of measured iterations only: warm-ups are kept apart from the samples, and out of the file.
    recordSeries: (series) => {
      if (step.warmup) return;
      (cell.timeseries ??= []).push({ ...series, iteration: step.iteration });
    },
    // Facts are the same every iteration (they describe the environment): the last measured one's are kept.
    recordFacts: (facts) => {
      if (step.warmup) return;
      cell.facts = facts;
    },
    currentStep: () => currentStep,
  };
}

/**
 * A benchmark's step must give its decision metrics (src/model/decisions.js) in Docker and DinD: a run that
 * cannot answer its own question fails the cell saying so, rather than reading as "not measured". Native has
 * no engine, and an alternative may lack what a metric needs (memory's job cost needs the job's own
 * processes): there a missing decision metric leaves the decision out, described only.
 * @param {CellResult} cell @param {import('../benchmarks/benchmark.js').Metric[]} metrics
 */
export function requireDecisions(cell, metrics) {
  if (!decidedIn(cell.environment)) return;
  const missing = (decisionOf(cell.benchmark)?.metrics ?? []).filter((d) => !metrics.some((m) => m.metric === d));
  if (missing.length)
    throw new Error(
      `${cell.benchmark} gave no ${missing.join(', ')}, its decision metric (src/model/decisions.js): its metrics were ${
        metrics
          .map((m) => m.metric)
          .slice(0, 12)
          .join(', ') || 'none'
      }`,
    );
}
