// `dind-bench run` as a pipeline: prepare images (build what is missing, ./images.js), make the plan,
// execute it (./runner.js), describe the images, assemble the results document (./document.js), write
// DIR/results.json, DIR/report.md, DIR/report.html (and DIR/raw/ while running) and print the report
// (./outputs.js). DIR/results.json is written as the run goes, partial until the end
// (src/run/checkpoint.js); `--resume DIR` continues such a run.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { BENCHMARKS } from '../benchmarks/index.js';
import { DEFAULT_BENCHMARKS } from '../benchmarks/names.js';
import { requireEngine } from '../engine/client.js';
import { hostFacts, suiteFacts } from '../results/provenance.js';
import { DEFAULT_MAX_ITERATIONS } from './adaptive.js';
import { looksUpTo } from '../model/decisions.js';
import { Checkpoint, OtherHardwareError, ResumeError, readPartial, resumedOptions } from './checkpoint.js';
import { assembleResults, partialDocument, resumedFacts } from './document.js';
import { DIND_START_S, IMAGE_LOAD_S, stepEstimates } from './estimate.js';
import { describeImages, prepareImages } from './images.js';
import { dindImage } from '../images/catalog.js';
import { printReport, writeOutputs } from './outputs.js';
import {
  EXIT_CELLS_FAILED,
  EXIT_ENGINE_LOST,
  EXIT_LESS_THAN_ASKED,
  EXIT_OVER_BUDGET,
  exitCodeOf,
} from '../reading/gate.js';
import { validateParamOverrides } from './params.js';
import { checkPair, makePlan } from './plan.js';
import { planCells } from './cells.js';
import { withWorkload } from './workload.js';
import { duration } from './progress.js';
import { designOf, runIdOf } from './design.js';
import { executePlan } from './runner.js';
import { BudgetError, budgetForSelection, budgetToHold, fitAtPlan, isNamed } from './budget.js';
import { calibrated, calibrationOf, fastestProbe } from './calibrate.js';
import { startPeakRss } from './memory.js';
import { OUT_LOCK, lockOut } from './out-lock.js';

/**
 * CELLS_FAILED: the run finished but a cell failed; ENGINE_LOST: an engine went away and did not come back
 * within the wait: the partial results say "interrupted" and `run --resume DIR` continues the run;
 * LESS_THAN_ASKED: the run finished, every cell named on the command line ran, but cells the profile added by
 * default were left out for the budget at plan time (named then and at the top of the report; a failed cell
 * takes precedence: 3); OVER_BUDGET: with --budget-strict, the budget cannot hold what was asked for:
 * refused before the first step, or stopped before going over (the partial results say "interrupted").
 */
export const EXIT = {
  OK: 0,
  CELLS_FAILED: EXIT_CELLS_FAILED,
  ENGINE_LOST: EXIT_ENGINE_LOST,
  LESS_THAN_ASKED: EXIT_LESS_THAN_ASKED,
  OVER_BUDGET: EXIT_OVER_BUDGET,
};

/** What a budget keeps for the end of the run: teardown, describing the images, the reports. */
const RESERVE_MS = 45_000;

/**
 * @typedef {{
 *   outer: import('dockerode'), profile: import('#model/results.js').Run['profile'], benchmarks: string[], environments: string[], distros: string[],
 *   engines: string[], iterations?: number, out: string, build: boolean, runnerLabels?: string[], args: object,
 *   log: (s: string) => void, paramOverrides?: import('./params.js').ParamOverrides,
 *   registry?: import('./params.js').BenchmarkRegistry, resumed?: any, budgetMs?: number, budgetStrict?: boolean,
 *   locked?: boolean, pair?: import('./adaptive.js').Pair, named?: string[], only?: Record<string, string[]> | null,
 * }} RunOptions
 *   registry: where benchmark names are looked up (default: every benchmark)
 *   locked: the caller holds the --out folder's lock already (a resume)
 *   budgetStrict: refuse to start when the budget cannot hold what was asked for, stop when the run is
 *   projected past it (./budget.js)
 *   named: the selection options given on the command line (bench, workload, env, engine, distro): their
 *   cells are never left out for the budget; without it, every cell is the profile's default
 *   pair: the run is an A/B of these two environments: adaptive rounds and the budget's baseline follow it
 *   resumed: the partial results of the run being continued (see resumeCommand)
 *   budgetMs: the run's wall-time budget: after the planned iterations, add iterations where they pay
 *   while it lasts (src/run/adaptive.js); without it the plan is all
 * @typedef {import('./design.js').RunDesign & {
 *   registry: import('./params.js').BenchmarkRegistry, startedAt: Date, t0: number,
 * }} Design
 *   what the options make of the run (designOf, shared with `plan` and `workflow matrix`), and when it started
 */

/**
 * @param {RunOptions} o
 * @returns {Promise<{exitCode: number, results: any, file: string}>}
 */
export async function runCommand(o) {
  if (o.locked) return runLocked(o);
  const release = await lockOut(path.resolve(o.out), o.log);
  try {
    return await runLocked(o);
  } finally {
    release();
  }
}

/** @param {RunOptions} o the --out folder's lock held (./out-lock.js) */
async function runLocked(o) {
  const design = runDesign(o);
  const peakRss = startPeakRss();
  const { outDir, file } = outputPaths(o);
  await requireEngine(o.outer);
  const images = await prepareImages(o, design.registry, design.engines, design.nextLine?.engine);
  const nextLine = nextLineHere(o, design, images);
  const plan = makePlan({
    benchmarks: o.benchmarks,
    environments: o.environments,
    distros: o.distros,
    engines: design.engines,
    iterations: design.iterations,
    warmup: design.profile.warmup,
    nextLine,
    only: o.only ?? null,
  });
  checkPair(o.pair, plan);
  // With a budget, the plan's estimates are this machine's (./calibrate.js) before the budget decides.
  const calibration = design.budgetMs && !o.resumed ? calibrationOf(await fastestProbe(outDir)) : null;
  const estimates = logPlan(o, design, plan, calibration);
  try {
    const fit = fitToBudget(o, design, plan, estimates, images.unavailable, calibration?.factor ?? 1);
    return await measure(o, { design, plan, estimates, images, fit, calibration, peakRss, outDir, file });
  } catch (e) {
    if (!(e instanceof BudgetError)) throw e;
    o.log(e.message);
    return { exitCode: exitCodeOf({ stopped: 'over budget' }, 'run'), results: null, file };
  }
}

/**
 * The plan run, described and written out.
 * @param {RunOptions} o
 * @param {{ design: Design, plan: ReturnType<typeof makePlan>, estimates: number[], fit: ReturnType<typeof fitToBudget>,
 *   calibration: import('./calibrate.js').Calibration | null,
 *   images: Awaited<ReturnType<typeof prepareImages>>, peakRss: ReturnType<typeof startPeakRss>, outDir: string, file: string }} p
 */
async function measure(o, { design, plan, estimates, images, fit, calibration, peakRss, outDir, file }) {
  const runId = o.resumed?.run.id ?? runIdOf(design.startedAt);
  const facts = { startedAt: design.startedAt, iterations: design.iterations, warmup: design.profile.warmup };
  const partial = await partialDocument(o, { runId, ...facts, budgetMs: design.budgetMs });
  const executed = await executePlan({
    outer: o.outer,
    plan,
    profile: { name: o.profile, stepTimeoutMs: design.profile.stepTimeoutMs },
    outDir,
    unavailableImages: images.unavailable,
    log: o.log,
    paramOverrides: o.paramOverrides,
    benchmarks: design.registry,
    runId,
    resume: o.resumed
      ? { cells: o.resumed.cells, environments: o.resumed.environments, engineEvents: o.resumed.run.engineEvents }
      : undefined,
    checkpoint: new Checkpoint(file, partial),
    estimates,
    adaptive: adaptiveOf(
      design,
      Boolean(o.budgetStrict),
      o.pair,
      fit.over,
      fit.cells.length ? { cells: fit.cells, estimates, record: [] } : undefined,
    ),
    leftOut: fit.leftOut,
  }).catch((e) => {
    if (e instanceof BudgetError)
      e.message += `. ${file} is kept as interrupted: continue with \`dind-bench run --resume ${o.out}\``;
    throw e;
  });
  // Interrupted: the signal handler removes what the run created and exits; nothing more may start
  // (a container describing an image, created after that cleanup, would be left behind).
  if (executed.interrupted)
    throw new Error('interrupted: the run stopped and removed what it created; nothing was written');
  if (executed.lost) {
    o.log(
      `run stopped: ${executed.lost}. ${file} is kept as interrupted: continue with \`dind-bench run --resume ${o.out}\``,
    );
    return { exitCode: exitCodeOf({ stopped: 'engine lost' }, 'run'), results: null, file };
  }
  const described = await describeImages(o.outer, images, executed.runId, o.log);
  const results = await assembleResults(o, {
    ...facts,
    budgetMs: design.budgetMs,
    lookSizes: design.budgetMs
      ? looksUpTo(design.iterations, design.profile.maxIterations ?? DEFAULT_MAX_ITERATIONS)
      : [design.iterations],
    executed,
    images: described,
    peakRss,
    calibration,
  });
  if (o.resumed) resumedFacts(results, o.resumed, executed.cells);
  const reading = await writeOutputs(outDir, file, results);
  printReport(reading, results, outDir, file, o.log);
  if (reading.leftOutCells)
    o.log(
      `budget: this run measured less than its profile plans: ${reading.leftOutCells} cell(s) the profile added by default were left out for the budget (see the top of report.md); exit ${exitCodeOf(reading, 'run')}`,
    );
  return { exitCode: exitCodeOf(reading, 'run'), results, file };
}

/**
 * The next Engine line's cells (the quick profile's upgrade question, ./design.js nextLineOf), when its DinD
 * image could be had (said when not: the run goes on with the question unanswered) and, on a resume, when
 * the first attempt planned them.
 * @param {RunOptions} o @param {Design} design @param {Awaited<ReturnType<typeof prepareImages>>} images
 */
function nextLineHere(o, design, images) {
  const next = design.nextLine;
  if (!next) return null;
  const key = `${next.environment}@${next.engine}`;
  if (o.resumed && !o.resumed.cells.some((c) => c.environmentKey === key)) return null;
  const why = images.unavailable[dindImage(next.engine)];
  if (why) {
    o.log(
      `the next Engine line ${next.engine} is not measured (what it does to a job's start-up stays unanswered): ${why}`,
    );
    return null;
  }
  o.log(
    `${key}: the start-up a job pays on the next inner Engine line too (lifecycle only), to answer what the upgrade does; --engine chooses the lines yourself`,
  );
  return next;
}

/** @param {RunOptions} o @returns {Design} */
function runDesign(o) {
  return {
    ...designOf(o),
    registry: o.registry ?? BENCHMARKS,
    startedAt: new Date(),
    t0: performance.now(),
  };
}

/**
 * DIR and DIR/results.json. A recorded run is never overwritten (a resumed one is continued, not overwritten).
 * @param {RunOptions} o
 */
function outputPaths(o) {
  const outDir = path.resolve(o.out);
  const file = path.join(outDir, 'results.json');
  if (!o.resumed && existsSync(file)) {
    throw new Error(`${file} already exists: choose another --out folder (a run never overwrites one).`);
  }
  return { outDir, file };
}

/**
 * Says what the plan will do and how long it should take on this machine; returns each step's estimate
 * (calibrated), for the ETA and the budget.
 * @param {RunOptions} o @param {Design} design @param {ReturnType<typeof makePlan>} plan
 * @param {import('./calibrate.js').Calibration | null} calibration
 */
function logPlan(o, design, plan, calibration) {
  const { registry, profile, iterations } = design;
  const reference = stepEstimates({ plan, profile: o.profile, paramOverrides: o.paramOverrides, registry });
  // The share of the profile is the reference plan's: both sides on the same machine.
  design.budgetMs = budgetOfSelection(o, design, reference.setupS + reference.steps.reduce((a, b) => a + b, 0));
  const budgetMs = design.budgetMs;
  const estimates = calibrated(reference, calibration?.factor ?? 1);
  const estimate = estimates.setupS + estimates.steps.reduce((a, b) => a + b, 0);
  if (calibration)
    o.log(
      `calibration: a ${(calibration.probeMs / 1000).toFixed(1)} s probe (${(calibration.referenceMs / 1000).toFixed(1)} s on the machine the estimates were measured on): this machine's estimates are ${calibration.factor}x those`,
    );
  const each = `${profile.warmup} warm-up + ${iterations} iterations each, interleaved`;
  const more = budgetMs
    ? `, within a budget of ${Math.round(budgetMs / 1000)} s (then samples where a decision is still open)`
    : '';
  o.log(
    `plan: ${plan.cells.length} cells, ${plan.steps.length} steps (${each}), estimated ${duration(estimate)}${calibration ? ' on this machine' : ''}${more}`,
  );
  return estimates.steps;
}

/**
 * With a budget, what bounds the run: the planned rounds are fitted into it (./budget.js), the adaptive
 * rounds use what is left. Teardown, image facts and the reports come after the last round: kept out of
 * the budget (reserveMs).
 * @param {Design} design @param {boolean} strict @param {import('./adaptive.js').Pair} [pair]
 * @param {boolean} [over] the plan was said at plan time to go over the budget: not said again as it runs
 * @param {import('./adaptive-rounds.js').Replanning} [replan] re-make the plan after each cell's first iteration
 * @returns {import('./adaptive-rounds.js').RoundOptions & {strict: boolean, over: boolean} | undefined}
 */
function adaptiveOf({ budgetMs, profile, t0, iterations }, strict, pair, over = false, replan = undefined) {
  if (!budgetMs) return undefined;
  return {
    replan,
    pair,
    budgetMs,
    firstLook: iterations,
    maxIterations: profile.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    reserveMs: RESERVE_MS,
    startedAt: t0,
    strict,
    over,
  };
}

/**
 * The profile's budget in proportion to what was asked for (./budget.js): two benchmarks of twelve do not get
 * the whole of it. An explicit --budget, a resumed run's budget and a run of the whole profile keep theirs.
 * @param {RunOptions} o @param {Design} design @param {number} selectedS the plan's estimate
 */
function budgetOfSelection(o, design, selectedS) {
  if (!design.budgetMs || o.budgetMs !== undefined || o.resumed || o.registry !== undefined) return design.budgetMs;
  // The whole profile is what a run measures unless told: the default benchmarks (isolation is asked for by name).
  const whole = makePlan({
    benchmarks: design.profile.benchmarks ?? DEFAULT_BENCHMARKS,
    environments: o.environments,
    distros: o.distros,
    engines: design.engines,
    iterations: design.iterations,
    warmup: design.profile.warmup,
    nextLine: design.nextLine,
    only: o.only ?? null,
  });
  const est = stepEstimates({ plan: whole, profile: o.profile, paramOverrides: o.paramOverrides });
  const wholeS = est.setupS + est.steps.reduce((a, b) => a + b, 0);
  const budgetMs = budgetForSelection(design.budgetMs, selectedS, wholeS, RESERVE_MS);
  if (budgetMs !== design.budgetMs) {
    o.log(
      `budget: ${Math.round(budgetMs / 1000)} s, the ${o.profile} profile's ${Math.round(design.budgetMs / 1000)} s in proportion to the benchmarks asked for`,
    );
  }
  return budgetMs;
}

/**
 * At plan time, before anything is set up, with a budget: which cells it leaves out (./budget.js), by key
 * with why. What the command line named is kept; when it (or, with nothing named, the last comparison) does
 * not fit either, the run says so with the time it will take and goes on without adaptive rounds, or with
 * --budget-strict refuses (BudgetError). A resumed run keeps the decisions of its first attempt.
 * @param {RunOptions} o @param {Design} design @param {ReturnType<typeof makePlan>} plan
 * @param {number[]} estimates each step's, in plan order @param {Record<string, string>} unavailableImages
 * @param {number} factor this machine's over the estimates' (./calibrate.js): the set-up scales with it too
 * @returns {{ leftOut: Map<string, string>, over: boolean, cells: import('./budget.js').PlanCell[] }} leftOut:
 *   by key, with why; over: what is kept does not fit either (said here); cells: those kept, as judged here
 */
function fitToBudget(o, design, plan, estimates, unavailableImages, factor) {
  const budgetMs = design.budgetMs;
  if (!budgetMs || o.resumed) return { leftOut: new Map(), over: false, cells: [] };
  const cells = planCells(plan, design.registry, unavailableImages);
  /** @type {Map<string, number>} */
  const stepsS = new Map();
  plan.steps.forEach((s, i) => stepsS.set(s.cell, (stepsS.get(s.cell) ?? 0) + estimates[i]));
  const given = new Set(o.named ?? []);
  const named = {
    benchmarks: given.has('bench') || given.has('workload') ? o.benchmarks : [],
    environments: given.has('env') ? o.environments : [],
    engines: given.has('engine') ? o.engines : [],
    distros: given.has('distro') ? o.distros : [],
    keys: o.pair ? [o.pair.baseline, o.pair.candidate] : [],
  };
  const runnable = [...cells]
    .filter(([, c]) => c.status === 'pending')
    .map(([key, c]) => ({
      key,
      ...c,
      baseline: c.environmentKey === (o.pair?.baseline ?? 'docker'),
      named: isNamed(c, named),
      stepsS: stepsS.get(key) ?? 0,
    }));
  const spentS = (performance.now() - design.t0) / 1000;
  const budgetS = Math.round(budgetMs / 1000);
  const leftS = budgetMs / 1000 - RESERVE_MS / 1000 - spentS;
  const fit = fitAtPlan(runnable, leftS, { startS: DIND_START_S * factor, imageS: IMAGE_LOAD_S * factor });
  const hold = budgetToHold(fit.keptS, spentS, RESERVE_MS);
  const left = `${Math.max(0, Math.round(leftS))} s are left of ${budgetS} s for the planned rounds`;
  // Every round costs about the same: how many of them the budget holds (a workload's long job makes this the figure to give).
  const rounds = design.iterations + design.profile.warmup;
  const fitting = Math.max(0, Math.floor(leftS / (fit.keptS / rounds)) - design.profile.warmup);
  if (!fit.fits && o.budgetStrict) {
    throw new BudgetError(
      `budget: what was asked for needs about ${Math.round(fit.keptS)} s (${duration(fit.keptS)}) of planned rounds, ${left}; ` +
        `not started (--budget-strict): --budget ${hold} would hold it, or ${fitting} iteration(s) would fit it (--iterations ${fitting})`,
    );
  }
  /** @type {Map<string, string>} */
  const out = new Map();
  if (fit.leftOut.length) {
    const savedS = Math.round(fit.needS - fit.keptS);
    o.log(
      `budget: the plan needs about ${Math.round(fit.needS)} s, ${left}: leaving out, before the first step, ` +
        `${fit.leftOut.length} cell(s) the profile added by default (nothing named on the command line is left out), ` +
        `about ${savedS} s: ${fit.leftOut.map((c) => c.key).join(', ')}`,
    );
    o.log(
      `budget: this run will measure less than its profile plans (exit ${EXIT.LESS_THAN_ASKED} at the end, unless a cell fails); name a cell (--bench, --env, --engine, --distro) to keep it, or give a larger --budget`,
    );
    for (const c of fit.leftOut) {
      out.set(
        c.key,
        `left out at plan time to keep the run within its budget of ${budgetS} s: the profile added it by default (not named on the command line) and the budget could not hold its planned rounds (about ${Math.round(c.stepsS)} s)`,
      );
    }
  }
  if (!fit.fits) {
    // What stays: what was named, and the start-up a job pays (never left out, ./budget.js).
    const startUps = fit.keptS > fit.namedS && runnable.some((c) => c.benchmark === 'lifecycle' && !c.named);
    const parts = [
      ...(fit.namedS > 0 ? ['every cell named on the command line'] : []),
      ...(startUps ? ['the start-up a job pays'] : []),
    ];
    const kept = parts.join(' and ') || 'the last comparison';
    o.log(
      `budget: what is kept needs about ${Math.round(fit.keptS)} s (${duration(fit.keptS)}) of planned rounds, ${left}: ` +
        `${kept} ${parts.length > 1 ? 'keep' : 'keeps'} its planned ${design.iterations} iteration(s), so the run goes over its budget and takes no adaptive rounds ` +
        `(--budget ${hold} would hold it, or ${fitting} iteration(s) would fit it: --iterations ${fitting}; with --budget and --budget-strict it would refuse to start instead)`,
    );
  }
  return { leftOut: out, over: !fit.fits, cells: runnable.filter((c) => !fit.leftOut.includes(c)) };
}

/**
 * `dind-bench run --resume DIR`: the interrupted run in DIR continued with the options it recorded, on
 * the same hardware, suite version and Engine; steps it finished are not run again, cells that failed are
 * tried again (also in a finished run: a re-run of its job). Recorded on other hardware, its samples
 * cannot be pooled with this machine's: it is moved aside and a fresh run starts with its options.
 * @param {{outer: import('dockerode'), dir: string, log: (s: string) => void,
 *   registry?: Record<string, import('../benchmarks/benchmark.js').Benchmark>}} o
 */
export async function resumeCommand(o) {
  const release = await lockOut(path.resolve(o.dir), o.log);
  try {
    return await resumeLocked(o);
  } finally {
    release();
  }
}

/** @param {Parameters<typeof resumeCommand>[0]} o the folder's lock held */
async function resumeLocked(o) {
  const here = { fingerprint: hostFacts().fingerprint, suite: await suiteFacts() };
  const resumed = await readPartial(o.dir, here).catch((e) => {
    if (e instanceof OtherHardwareError) return e;
    throw e;
  });
  if (resumed instanceof OtherHardwareError) return freshOnOtherHardware(o, resumed);
  await requireEngine(o.outer);
  const engine = (await o.outer.info()).ServerVersion;
  if (engine !== resumed.engines.outer.version) {
    const was = resumed.engines.outer.version;
    throw new ResumeError(`${o.dir}: recorded on Engine ${was}, this engine is ${engine}: resume on the same Engine`);
  }
  const { opts, registry, paramOverrides } = await recordedOptions(o, resumed);
  const done = resumed.cells.reduce((n, c) => n + (c.stepsDone ?? 0), 0);
  const finished = resumed.cells.filter((c) => c.status !== 'pending').length;
  const failed = resumed.cells.filter((c) => c.status === 'failed').length;
  const id = `${resumed.run.id} (${resumed.run.state ?? 'finished'})`;
  const retry = failed ? `; ${failed} failed cell(s) are tried again` : '';
  o.log(`resuming run ${id}: ${done} step(s) of pending cells done, ${finished} cell(s) finished${retry}`);
  return runCommand({
    ...opts,
    outer: o.outer,
    out: o.dir,
    log: o.log,
    paramOverrides,
    registry,
    resumed,
    locked: true,
  });
}

/**
 * The options a recorded run ran with, checked again as `run` checks its own.
 * @param {{dir: string, registry?: Record<string, import('../benchmarks/benchmark.js').Benchmark>}} o
 * @param {import('#model/results.js').Results} recorded
 */
async function recordedOptions(o, recorded) {
  const opts = resumedOptions(recorded);
  const workload = recorded.run.args?.workload;
  const registry =
    o.registry ?? (typeof workload === 'string' ? (await withWorkload(workload, [])).registry : BENCHMARKS);
  const unknown = opts.benchmarks.filter((b) => !(b in registry));
  if (unknown.length) {
    throw new ResumeError(`${o.dir}: unknown benchmarks ${unknown.join(', ')}: not resumable by this dind-bench`);
  }
  const paramOverrides = validateParamOverrides(opts.paramOverrides, `${o.dir} (run.args.paramOverrides)`, registry);
  return { opts, registry, paramOverrides };
}

/**
 * A resume that landed on other hardware: what the earlier attempt wrote moves to DIR/other-hardware/RUN-ID/
 * (kept, never pooled), and a fresh run starts in DIR with the options it recorded.
 * @param {{outer: import('dockerode'), dir: string, log: (s: string) => void,
 *   registry?: Record<string, import('../benchmarks/benchmark.js').Benchmark>}} o
 * @param {OtherHardwareError} e
 */
async function freshOnOtherHardware(o, e) {
  const { opts, registry, paramOverrides } = await recordedOptions(o, e.results);
  const aside = path.join(o.dir, 'other-hardware', e.results.run.id);
  await mkdir(aside, { recursive: true });
  for (const name of await readdir(o.dir)) {
    if (name !== 'other-hardware' && name !== OUT_LOCK) await rename(path.join(o.dir, name), path.join(aside, name));
  }
  o.log(`${e.message}: its samples cannot be pooled with this machine's; moved to ${aside}, starting a fresh run`);
  return runCommand({ ...opts, outer: o.outer, out: o.dir, log: o.log, paramOverrides, registry, locked: true });
}
