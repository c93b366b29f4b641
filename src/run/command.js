// `dind-bench run` as a pipeline: prepare images (build what is missing, ./images.js), make the plan,
// execute it (./runner.js), describe the images, assemble the results document (./document.js), write
// DIR/results.json, DIR/report.md, DIR/report.html (and DIR/raw/ while running) and print the report
// (./outputs.js). DIR/results.json is written as the run goes, partial until the end
// (src/run/checkpoint.js); `--resume DIR` continues such a run.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BENCHMARKS } from '../benchmarks/index.js';
import { requireEngine } from '../engine/client.js';
import { hostFacts, suiteFacts } from '../results/provenance.js';
import { DEFAULT_MAX_ITERATIONS } from './adaptive.js';
import { Checkpoint, ResumeError, readPartial, resumedOptions } from './checkpoint.js';
import { assembleResults, partialDocument, resumedFacts } from './document.js';
import { stepEstimates } from './estimate.js';
import { describeImages, prepareImages } from './images.js';
import { printReport, writeOutputs } from './outputs.js';
import { validateParamOverrides } from './params.js';
import { makePlan } from './plan.js';
import { withWorkload } from './workload.js';
import { duration } from './progress.js';
import { designOf, runIdOf } from './design.js';
import { executePlan } from './runner.js';
import { startPeakRss } from './memory.js';

export const EXIT = { OK: 0, CELLS_FAILED: 3 };

/** The change adaptive sampling aims to make detectable DinD vs Docker: the verdicts' default minChange. */
export const ADAPTIVE_MIN_CHANGE = 0.05;

/**
 * @typedef {{
 *   outer: import('dockerode'), profile: import('#model/results.js').Run['profile'], benchmarks: string[], environments: string[], distros: string[],
 *   engines: string[], iterations?: number, out: string, build: boolean, runnerLabels?: string[], args: object,
 *   log: (s: string) => void, paramOverrides?: import('./params.js').ParamOverrides,
 *   registry?: import('./params.js').BenchmarkRegistry, resumed?: any, budgetMs?: number,
 * }} RunOptions
 *   registry: where benchmark names are looked up (default: every benchmark)
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
  const design = runDesign(o);
  const peakRss = startPeakRss();
  const { outDir, file } = outputPaths(o);
  await requireEngine(o.outer);
  const images = await prepareImages(o, design.registry, design.engines);
  const plan = makePlan({
    benchmarks: o.benchmarks,
    environments: o.environments,
    distros: o.distros,
    engines: design.engines,
    iterations: design.iterations,
    warmup: design.profile.warmup,
  });
  const estimates = logPlan(o, design, plan);
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
    resume: o.resumed ? { cells: o.resumed.cells, environments: o.resumed.environments } : undefined,
    checkpoint: new Checkpoint(file, partial),
    estimates,
    adaptive: adaptiveOf(design),
  });
  // Interrupted: the signal handler removes what the run created and exits; nothing more may start
  // (a container describing an image, created after that cleanup, would be left behind).
  if (executed.interrupted)
    throw new Error('interrupted: the run stopped and removed what it created; nothing was written');
  const described = await describeImages(o.outer, images, executed.runId, o.log);
  const results = await assembleResults(o, {
    ...facts,
    budgetMs: design.budgetMs,
    executed,
    images: described,
    peakRss,
  });
  if (o.resumed) resumedFacts(results, o.resumed, executed.cells);
  await writeOutputs(outDir, file, results);
  printReport(results, outDir, file, o.log);
  return { exitCode: results.run.complete ? EXIT.OK : EXIT.CELLS_FAILED, results, file };
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
 * Says what the plan will do and how long it should take; returns each step's estimate, for the ETA.
 * @param {RunOptions} o @param {Design} design @param {ReturnType<typeof makePlan>} plan
 */
function logPlan(o, design, plan) {
  const { registry, profile, iterations, budgetMs } = design;
  const estimates = stepEstimates({ plan, profile: o.profile, paramOverrides: o.paramOverrides, registry });
  const estimate = estimates.setupS + estimates.steps.reduce((a, b) => a + b, 0);
  const each = `${profile.warmup} warm-up + ${iterations} iterations each, interleaved`;
  const more = budgetMs ? `, then more where they pay within a budget of ${Math.round(budgetMs / 1000)} s` : '';
  o.log(
    `plan: ${plan.cells.length} cells, ${plan.steps.length} steps (${each}), estimated ${duration(estimate)}${more}`,
  );
  return estimates.steps;
}

/**
 * With a budget, the adaptive rounds after the plan. Teardown, image facts and the reports come after the
 * last round: kept out of the budget.
 * @param {Design} design
 * @returns {import('./adaptive-rounds.js').RoundOptions | undefined}
 */
function adaptiveOf({ budgetMs, profile, t0 }) {
  if (!budgetMs) return undefined;
  return {
    budgetMs,
    minChange: ADAPTIVE_MIN_CHANGE,
    maxIterations: profile.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    reserveMs: 45_000,
    startedAt: t0,
  };
}

/**
 * `dind-bench run --resume DIR`: the interrupted run in DIR continued with the options it recorded, on
 * the same hardware, suite version and Engine; steps it finished are not run again.
 * @param {{outer: import('dockerode'), dir: string, log: (s: string) => void,
 *   registry?: Record<string, import('../benchmarks/benchmark.js').Benchmark>}} o
 */
export async function resumeCommand(o) {
  const here = { fingerprint: hostFacts().fingerprint, suite: await suiteFacts() };
  const resumed = await readPartial(o.dir, here);
  await requireEngine(o.outer);
  const engine = (await o.outer.info()).ServerVersion;
  if (engine !== resumed.engines.outer.version) {
    const was = resumed.engines.outer.version;
    throw new ResumeError(`${o.dir}: recorded on Engine ${was}, this engine is ${engine}: resume on the same Engine`);
  }
  const opts = resumedOptions(resumed);
  const workload = resumed.run.args?.workload;
  const registry =
    o.registry ?? (typeof workload === 'string' ? (await withWorkload(workload, [])).registry : BENCHMARKS);
  const unknown = opts.benchmarks.filter((b) => !(b in registry));
  if (unknown.length) {
    throw new ResumeError(`${o.dir}: unknown benchmarks ${unknown.join(', ')}: not resumable by this dind-bench`);
  }
  const paramOverrides = validateParamOverrides(opts.paramOverrides, `${o.dir} (run.args.paramOverrides)`, registry);
  const done = resumed.cells.reduce((n, /** @type {any} */ c) => n + (c.stepsDone ?? 0), 0);
  const finished = resumed.cells.filter((/** @type {any} */ c) => c.status !== 'pending').length;
  const id = `${resumed.run.id} (${resumed.run.state})`;
  o.log(`resuming run ${id}: ${done} step(s) of pending cells done, ${finished} cell(s) finished`);
  return runCommand({ ...opts, outer: o.outer, out: o.dir, log: o.log, paramOverrides, registry, resumed });
}
