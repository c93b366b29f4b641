// Executes a run plan against real environments and returns the results document, as a pipeline of
// named steps, each in a module of its own: plan the cells (./cells.js), set up the environments
// (./setup.js), run the steps (./steps.js) and, with a budget, the adaptive rounds (./adaptive-rounds.js),
// tear down (./teardown.js).
//
// Failure handling: an environment that cannot start makes its cells "unavailable" with the engine's
// own message; a step that fails or times out makes its cell "failed" with the reason, the step and the
// tail of the tool's output, and the run goes on. Whatever happens, teardown removes every container,
// volume and network the run created, also on SIGINT/SIGTERM.
//
// Long runs: with a checkpoint the state is written after the setup and after every step, and once more
// as "interrupted" on SIGINT/SIGTERM (src/run/checkpoint.js); a resumed run starts from the cells it
// recorded and skips every step they had finished. Progress lines carry the elapsed time and an ETA.
import { ResourceTracker } from '../engine/resources.js';
import { createEnvironment } from '../environments/index.js';
import { BENCHMARKS } from '../benchmarks/index.js';
import { runAdaptiveRounds } from './adaptive-rounds.js';
import { BudgetError } from './budget.js';
import { finishCells, leaveOut, planCells, resumeCells } from './cells.js';
import { runIdOf } from './design.js';
import { Progress } from './progress.js';
import { EngineWatch } from './engine-watch.js';
import { keepRecorded, setUpAgain, setUpEnvironments } from './setup.js';
import { runPlannedSteps } from './steps.js';
import { guardTeardown } from './teardown.js';

/**
 * @typedef {import('./cells.js').CellResult} CellResult
 * @typedef {import('./plan.js').PlannedEnvironment & {
 *   status: 'ok' | 'unavailable', reason?: string, facts?: import('../environments/environment.js').EnvironmentFacts,
 * }} EnvironmentResult
 * @typedef {import('../environments/environment.js').Environment} Environment
 * @typedef {import('./params.js').BenchmarkRegistry} BenchmarkRegistry
 * @typedef {{name: string, stepTimeoutMs: number}} RunProfile
 * @typedef {{
 *   outDir: string, profile: RunProfile, log: (msg: string) => void, benchmarks: BenchmarkRegistry,
 *   paramOverrides: import('./params.js').ParamOverrides, tracker: ResourceTracker,
 *   progress: Progress, checkpoint?: import('./checkpoint.js').Checkpoint,
 *   environments: EnvironmentResult[],
 *   roundMs: Map<string, number[]>, cellMs?: Map<string, number[]>, engines?: EngineWatch,
 *   budget?: import('./adaptive-rounds.js').RoundOptions & {strict?: boolean},
 *   questions?: import('./adaptive.js').QuestionRecord[],
 * }} RunContext
 *   roundMs: per benchmark, the wall time of each measured interleaved round (every cell once); cellMs: per
 *   cell, the wall time of each measured step
 *   engines: checks the engines before each step and recovers a lost one (./engine-watch.js)
 *   budget: the whole run's budget (./budget.js): fitted at plan time; over: the run was projected past it
 *   questions: each decision's samples and why its sampling stopped, once the adaptive rounds end
 *   What every step of a run shares.
 */

/**
 * @param {{
 *   outer: import('dockerode'),
 *   plan: ReturnType<typeof import('./plan.js').makePlan>,
 *   profile: RunProfile,
 *   outDir: string,
 *   unavailableImages: Record<string, string>,
 *   log: (msg: string) => void,
 *   paramOverrides?: import('./params.js').ParamOverrides,
 *   benchmarks?: BenchmarkRegistry,
 *   runId?: string,
 *   resume?: {cells: CellResult[], environments: EnvironmentResult[], engineEvents?: import('./engine-watch.js').EngineEvent[]},
 *   checkpoint?: import('./checkpoint.js').Checkpoint,
 *   estimates?: number[],
 *   adaptive?: import('./adaptive-rounds.js').RoundOptions & {strict?: boolean},
 *   leftOut?: Map<string, string>,
 * }} args
 *   unavailableImages: image ref -> why it cannot be had here (e.g. Alpine offline)
 *   benchmarks: the registry the plan's benchmark names are looked up in (default: every benchmark)
 *   runId, resume: the run being resumed and what it recorded (its cells' steps done are not run again)
 *   checkpoint: where the run is written as it goes; estimates: seconds per plan step, for the ETA
 *   adaptive: after the plan, add iterations while the budget lasts (src/run/adaptive.js); startedAt is
 *   when the run began (performance.now()), so the budget counts image builds and setup too
 *   leftOut: cells left out for the budget at plan time (./budget.js), by key, with why: never set up, never run
 * @returns {Promise<{runId: string, environments: EnvironmentResult[], cells: CellResult[], interrupted: boolean,
 *   engineEvents: import('./engine-watch.js').EngineEvent[], lost: string | null,
 *   replans?: import('./adaptive-rounds.js').Replanned[], remadeS?: number,
 *   questions?: import('./adaptive.js').QuestionRecord[]}>}
 *   lost: why the run stopped early because an engine did not come back (its partial file says interrupted);
 *   replans: each re-plan after a cell's first iteration that left cells out; remadeS: the re-made plan's
 *   time from the run's start; questions: with a budget, each decision's samples and why sampling stopped
 */
export async function executePlan({
  outer,
  plan,
  profile,
  outDir,
  unavailableImages,
  log,
  paramOverrides = {},
  benchmarks = BENCHMARKS,
  runId = runIdOf(new Date()),
  resume,
  checkpoint,
  estimates,
  adaptive,
  leftOut,
}) {
  const tracker = new ResourceTracker(runId);
  /** @type {RunContext} */
  const run = {
    outDir,
    profile,
    log,
    benchmarks,
    paramOverrides,
    tracker,
    progress: progressOf(plan, estimates),
    checkpoint,
    environments: [],
    roundMs: new Map(),
    cellMs: new Map(),
    budget: adaptive,
  };
  /** @type {Map<string, Environment>} */
  const envs = new Map(plan.environments.map((e) => [e.key, createEnvironment(e.name, outer, e.engine)]));
  const guard = guardTeardown({ outer, envs, tracker, checkpoint, log });

  const cells = planCells(plan, benchmarks, unavailableImages);
  if (resume) resumeCells(cells, resume.cells);
  for (const [key, why] of leftOut ?? []) leaveOut(/** @type {CellResult} */ (cells.get(key)), why);
  const watch = new EngineWatch({
    outer,
    envs,
    log,
    setUpAgain: (key) => setUpAgain(key, envs, cells, run),
    closing: () => tracker.closing,
  });
  watch.events.push(...(resume?.engineEvents ?? []));
  run.engines = watch;
  const save = async () => {
    await checkpoint?.save({ environments: run.environments, cells: [...cells.values()], engineEvents: watch.events });
  };
  try {
    // What an earlier attempt left on the engine (it stopped while the engine was away) goes first.
    if (resume) await tracker.sweep(outer).catch((e) => log(`cleanup of the earlier attempt: ${e.message}`));
    await save();
    run.environments = keepRecorded(await setUpEnvironments(plan.environments, envs, cells, run), resume?.environments);
    await save();
    await runPlannedSteps(plan.steps, envs, cells, run, save).catch(async (e) => {
      // A strict budget stopped the run before it went over: kept as interrupted, for `run --resume`.
      if (e instanceof BudgetError) await save().then(() => checkpoint?.interrupted());
      throw e;
    });
    if (adaptive && !watch.lost) await runAdaptiveRounds(plan, envs, cells, run, adaptive, save);
    if (!watch.lost) finishCells(cells);
    else await save().then(() => checkpoint?.interrupted());
  } finally {
    await guard.teardown();
  }
  // The signal handler ends the process once its cleanup is done. Nothing after the run may start
  // meanwhile: describing the images would create containers that the exit then leaves behind.
  const interrupted = guard.interrupted();
  if (interrupted) await new Promise(() => {});
  const engineEvents = watch.events;
  return {
    runId,
    environments: run.environments,
    cells: [...cells.values()],
    interrupted,
    engineEvents,
    lost: watch.lost,
    replans: adaptive?.replan?.record,
    remadeS: adaptive?.replan?.remadeS,
    questions: run.questions,
  };
}

/**
 * Progress lines for the plan's steps, their ETA starting from the estimates (1 s a step without them).
 * @param {ReturnType<typeof import('./plan.js').makePlan>} plan @param {number[] | undefined} estimates
 */
function progressOf(plan, estimates) {
  const cellOf = new Map(plan.cells.map((c) => [c.key, c]));
  return new Progress(
    plan.steps.map((s, i) => {
      const c = /** @type {import('./plan.js').PlannedCell} */ (cellOf.get(s.cell));
      return { benchmark: c.benchmark, environment: c.env, seconds: estimates?.[i] ?? 1 };
    }),
  );
}
