// Executes a run plan against real environments and returns the results document, as a pipeline of
// named steps: plan the cells, set up the environments, run the steps, tear down.
//
// Failure handling: an environment that cannot start makes its cells "unavailable" with the engine's
// own message; a step that fails or times out makes its cell "failed" with the reason, the step and the
// tail of the tool's output, and the run goes on. Whatever happens, teardown removes every container,
// volume and network the run created, also on SIGINT/SIGTERM.
//
// Long runs: with a checkpoint the state is written after the setup and after every step, and once more
// as "interrupted" on SIGINT/SIGTERM (src/run/checkpoint.js); a resumed run starts from the cells it
// recorded and skips every step they had finished. Progress lines carry the elapsed time and an ETA.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CellTimeoutError, withTimeout } from '../engine/containers.js';
import { ResourceTracker, cleanupOnSignals } from '../engine/resources.js';
import { createEnvironment } from '../environments/index.js';
import { BENCHMARKS } from '../benchmarks/index.js';
import { UnavailableError } from '../benchmarks/benchmark.js';
import { benchImage } from '../images/catalog.js';
import { ParseError } from '../parsers/parse-error.js';
import { needOf, nextRound, stopReason } from './adaptive.js';
import { paramsFor } from './params.js';
import { Progress } from './progress.js';
import { smallestMannWhitneyP } from '../results/within-run.js';

/**
 * @typedef {{metric: string, unit: string, better: 'higher' | 'lower', samples: number[], warmup: number[]}} MetricSeries
 * @typedef {{
 *   benchmark: string, environment: string, environmentKey: string, distro: string, engine: string | null,
 *   image: string | null, status: 'ok' | 'failed' | 'unavailable' | 'pending', reason?: string, step?: string,
 *   logTail?: string, metrics: MetricSeries[], raw: string[],
 *   timeseries?: (import('../benchmarks/benchmark.js').Series & {iteration: number})[], stepsDone?: number,
 *   sampling?: { iterations: number, stopped: string },
 * }} CellResult
 *   stepsDone: while the run is under way, how many of the cell's planned steps finished
 *   sampling: with --budget, how many measured iterations the cell got and why it stopped taking more
 * @typedef {import('./plan.js').PlannedEnvironment & {
 *   status: 'ok' | 'unavailable', reason?: string, facts?: import('../environments/environment.js').EnvironmentFacts,
 * }} EnvironmentResult
 * @typedef {import('../environments/environment.js').Environment} Environment
 * @typedef {Record<string, import('../benchmarks/benchmark.js').Benchmark>} BenchmarkRegistry
 * @typedef {{name: string, stepTimeoutMs: number}} RunProfile
 * @typedef {{
 *   outDir: string, profile: RunProfile, log: (msg: string) => void, benchmarks: BenchmarkRegistry,
 *   paramOverrides: import('./params.js').ParamOverrides, tracker: ResourceTracker,
 *   progress: Progress, checkpoint?: import('./checkpoint.js').Checkpoint,
 *   environments: EnvironmentResult[],
 *   roundMs: Map<string, number[]>,
 * }} RunContext
 *   roundMs: per benchmark, the wall time of each measured interleaved round (every cell once)
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
 *   resume?: {cells: CellResult[], environments: EnvironmentResult[]},
 *   checkpoint?: import('./checkpoint.js').Checkpoint,
 *   estimates?: number[],
 *   adaptive?: import('./adaptive.js').AdaptiveOptions & { startedAt: number },
 * }} args
 *   unavailableImages: image ref -> why it cannot be had here (e.g. Alpine offline)
 *   benchmarks: the registry the plan's benchmark names are looked up in (default: every benchmark)
 *   runId, resume: the run being resumed and what it recorded (its cells' steps done are not run again)
 *   checkpoint: where the run is written as it goes; estimates: seconds per plan step, for the ETA
 *   adaptive: after the plan, add iterations while the budget lasts (src/run/adaptive.js); startedAt is
 *   when the run began (performance.now()), so the budget counts image builds and setup too
 * @returns {Promise<{runId: string, environments: EnvironmentResult[], cells: CellResult[], interrupted: boolean}>}
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
  runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
  resume,
  checkpoint,
  estimates,
  adaptive,
}) {
  const tracker = new ResourceTracker(runId);
  const cellOf = new Map(plan.cells.map((c) => [c.key, c]));
  const progress = new Progress(
    plan.steps.map((s, i) => {
      const c = /** @type {import('./plan.js').PlannedCell} */ (cellOf.get(s.cell));
      return { benchmark: c.benchmark, environment: c.env, seconds: estimates?.[i] ?? 1 };
    }),
  );
  /** @type {RunContext} */
  const run = {
    outDir,
    profile,
    log,
    benchmarks,
    paramOverrides,
    tracker,
    progress,
    checkpoint,
    environments: [],
    roundMs: new Map(),
  };
  /** @type {Map<string, Environment>} */
  const envs = new Map(plan.environments.map((e) => [e.key, createEnvironment(e.name, outer, e.engine)]));
  const cleanup = async () => {
    for (const env of envs.values()) await env.teardown().catch(() => {});
    const problems = await tracker.cleanup(outer);
    for (const p of problems) log(`cleanup: ${p}`);
  };
  // Interrupted: the last state goes to disk as "interrupted" before the teardown, which can take a while.
  // The process exits when this handler is done, so it also waits (bounded) for the step in flight to end
  // and the run's own teardown after it: a step that was about to create a container when the first
  // cleanup swept would otherwise leave it behind.
  let interrupted = false;
  /** @type {() => void} */
  let torndown = () => {};
  const afterTeardown = new Promise((resolve) => (torndown = () => resolve(undefined)));
  const removeSignalHandlers = cleanupOnSignals(async () => {
    interrupted = true;
    await checkpoint?.interrupted().catch((e) => log(`could not mark the partial results interrupted: ${e.message}`));
    await cleanup();
    await Promise.race([afterTeardown, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  }, log);

  const cells = planCells(plan, benchmarks, unavailableImages);
  if (resume) resumeCells(cells, resume.cells);
  const save = async () => {
    await checkpoint?.save({ environments: run.environments, cells: [...cells.values()] });
  };
  try {
    await save();
    const fresh = await setUpEnvironments(plan.environments, envs, cells, run);
    // Environments whose cells all finished in an earlier attempt are not set up again: keep what they recorded.
    const recorded = (/** @type {EnvironmentResult} */ e) => resume?.environments.find((p) => p.key === e.key);
    run.environments = fresh.map((e) => (e.reason === 'no runnable cells' && recorded(e)) || e);
    await save();
    await runPlannedSteps(plan.steps, envs, cells, run, save);
    if (adaptive) await runAdaptiveRounds(plan, envs, cells, run, adaptive, save);
    for (const c of cells.values()) {
      if (c.status === 'pending') c.status = 'ok';
      delete c.stepsDone;
    }
  } finally {
    log('tearing down ...');
    await cleanup();
    removeSignalHandlers();
    torndown();
  }
  // The signal handler ends the process once its cleanup is done. Nothing after the run may start
  // meanwhile: describing the images would create containers that the exit then leaves behind.
  if (interrupted) await new Promise(() => {});
  return { runId, environments: run.environments, cells: [...cells.values()], interrupted };
}

/**
 * Takes over what the interrupted attempt recorded: finished cells as they are, pending cells with their
 * samples, raw files and steps done. A cell the plan does not have is a corrupt file, said so.
 * @param {Map<string, CellResult>} cells @param {CellResult[]} recorded
 */
function resumeCells(cells, recorded) {
  for (const r of recorded) {
    const key = `${r.benchmark}/${r.environmentKey}/${r.distro}`;
    const planned = cells.get(key);
    if (!planned) {
      throw new Error(`the partial results have a cell ${key} that the run's own options do not plan: not resumable`);
    }
    // Unfinished, and cannot run here now (its image is gone): what it recorded stays, marked why.
    const blocked = planned.status !== 'pending' && r.status === 'pending';
    const now = blocked ? { status: planned.status, reason: planned.reason } : {};
    cells.set(key, { ...r, ...now, stepsDone: r.stepsDone ?? 0 });
  }
}

/**
 * One pending cell per planned cell; those that cannot run here (the benchmark does not apply in the
 * environment, or its image cannot be had) are marked unavailable before anything runs.
 * @param {ReturnType<typeof import('./plan.js').makePlan>} plan @param {BenchmarkRegistry} benchmarks
 * @param {Record<string, string>} unavailableImages
 * @returns {Map<string, CellResult>} by cell key
 */
export function planCells(plan, benchmarks, unavailableImages) {
  /** @type {Map<string, CellResult>} */
  const cells = new Map();
  for (const c of plan.cells) {
    const env = plan.environments.find((e) => e.key === c.env);
    const bench = benchmarks[c.benchmark];
    const image = env?.name === 'native' ? null : benchImage(bench.image, c.distro);
    /** @type {CellResult} */
    const cell = {
      benchmark: c.benchmark,
      environment: env?.name ?? c.env,
      environmentKey: c.env,
      distro: c.distro,
      engine: c.engine,
      image,
      status: 'pending',
      metrics: [],
      raw: [],
    };
    const notHere = bench.unavailableIn?.[cell.environment];
    if (notHere) markUnavailable(cell, `${cell.benchmark} does not apply in ${cell.environment}: ${notHere}`);
    else if (image && unavailableImages[image])
      markUnavailable(cell, `image ${image} is unavailable: ${unavailableImages[image]}`);
    cells.set(c.key, cell);
  }
  return cells;
}

/**
 * Sets up each environment that has a runnable cell, loading the images its cells need. One that cannot
 * start makes its cells unavailable with the reason; the others go on.
 * @param {import('./plan.js').PlannedEnvironment[]} planned @param {Map<string, Environment>} envs
 * @param {Map<string, CellResult>} cells @param {RunContext} run
 * @returns {Promise<EnvironmentResult[]>} in plan order
 */
async function setUpEnvironments(planned, envs, cells, run) {
  /** @type {EnvironmentResult[]} */
  const results = [];
  for (const p of planned) {
    if (run.tracker.closing) break;
    const env = /** @type {Environment} */ (envs.get(p.key));
    const mine = [...cells.values()].filter((c) => c.environmentKey === p.key);
    if (!mine.some((c) => c.status === 'pending')) {
      results.push({ ...p, status: 'unavailable', reason: 'no runnable cells' });
      continue;
    }
    results.push(await setUpOne(p, env, mine, run));
  }
  return results;
}

/**
 * @param {import('./plan.js').PlannedEnvironment} p @param {Environment} env @param {CellResult[]} mine its cells
 * @param {RunContext} run
 * @returns {Promise<EnvironmentResult>}
 */
async function setUpOne(p, env, mine, run) {
  const images = [
    ...new Set(mine.filter((c) => c.status === 'pending' && c.image).map((c) => /** @type {string} */ (c.image))),
  ];
  run.log(`setting up ${p.key}${images.length ? ` (loading ${images.length} image(s))` : ''} ...`);
  try {
    const facts = await env.setup({ tracker: run.tracker, images });
    const engine = facts.engineVersion ? `engine ${facts.engineVersion}, storage ${facts.storageDriver}` : 'host';
    const dind = facts.dind
      ? `, started ${facts.dind.mode}, ready in ${Math.round(facts.dind.start_to_ready_ms)} ms`
      : '';
    run.log(`  ${p.key}: ${engine}${dind}`);
    return { ...p, status: 'ok', facts };
  } catch (e) {
    const reason = /** @type {Error} */ (e).message;
    for (const c of mine) if (c.status === 'pending') markUnavailable(c, `${p.key} could not start here: ${reason}`);
    run.log(`  ${p.key}: unavailable: ${reason.split('\n')[0]}`);
    await env.teardown().catch(() => {});
    return { ...p, status: 'unavailable', reason };
  }
}

/**
 * Runs the plan's steps in order (interleaved by the plan); cells that are no longer pending are skipped.
 * Stops starting new steps once the run is interrupted.
 * @param {import('./plan.js').PlannedStep[]} steps @param {Map<string, Environment>} envs
 * @param {Map<string, CellResult>} cells @param {RunContext} run
 */
async function runPlannedSteps(steps, envs, cells, run, save = async () => {}) {
  /** @type {Map<string, number>} steps of each cell met so far, to skip those an earlier attempt finished */
  const seen = new Map();
  const index = steps.map((s) => {
    const n = seen.get(s.cell) ?? 0;
    seen.set(s.cell, n + 1);
    return n;
  });
  const willRun = (/** @type {number} */ i) => cells.get(steps[i].cell)?.status === 'pending';
  for (const [i, step] of steps.entries()) {
    const cell = /** @type {CellResult} */ (cells.get(step.cell));
    if (cell.status === 'pending' && index[i] < (cell.stepsDone ?? 0)) run.progress.skip(i);
  }
  for (const [i, step] of steps.entries()) {
    if (run.tracker.closing) break; // interrupted: cleanup is under way, start nothing new
    const cell = /** @type {CellResult} */ (cells.get(step.cell));
    if (cell.status !== 'pending' || index[i] < (cell.stepsDone ?? 0)) continue;
    const env = /** @type {Environment} */ (envs.get(cell.environmentKey));
    const t0 = performance.now();
    const ok = await runOneStep(step, cell, env, run, `[${i + 1}/${steps.length}] ${step.cell}`, () => {
      run.progress.finished(i, (performance.now() - t0) / 1000);
      return ` ${run.progress.note(willRun)}`;
    });
    if (ok) cell.stepsDone = (cell.stepsDone ?? 0) + 1;
    await save();
    // What a round costs: the measured steps of one iteration of every cell of the benchmark, summed.
    if (!step.warmup) addRoundTime(run, cell.benchmark, step.iteration, performance.now() - t0);
  }
}

/** @param {RunContext} run @param {string} benchmark @param {number} iteration @param {number} ms */
function addRoundTime(run, benchmark, iteration, ms) {
  const rounds = run.roundMs.get(benchmark) ?? [];
  rounds[iteration] = (rounds[iteration] ?? 0) + ms;
  run.roundMs.set(benchmark, rounds);
}

/**
 * After the plan: one interleaved round at a time (one more iteration of every running cell of one
 * benchmark, in plan order), for the benchmark src/run/adaptive.js picks, until every benchmark is
 * narrow enough, capped, or the budget cannot pay for another round. Each cell records how many
 * iterations it got and why it stopped.
 * @param {ReturnType<typeof import('./plan.js').makePlan>} plan @param {Map<string, Environment>} envs
 * @param {Map<string, CellResult>} cells @param {RunContext} run
 * @param {import('./adaptive.js').AdaptiveOptions & { startedAt: number }} opts
 * @param {() => Promise<void>} save writes the partial results after each step
 */
async function runAdaptiveRounds(plan, envs, cells, run, opts, save) {
  const order = [...new Set(plan.cells.map((c) => c.benchmark))];
  const cellsOf = (/** @type {string} */ b) =>
    plan.cells
      .filter((c) => c.benchmark === b)
      .map((c) => ({ key: c.key, cell: /** @type {CellResult} */ (cells.get(c.key)) }));
  const remaining = () => opts.startedAt + opts.budgetMs - opts.reserveMs - performance.now();
  const stateOf = (/** @type {string} */ b) => {
    const running = cellsOf(b).filter((x) => x.cell.status === 'pending');
    const rounds = (run.roundMs.get(b) ?? []).filter((x) => x !== undefined);
    return {
      benchmark: b,
      need: needOf(
        running.map((x) => x.cell),
        opts.minChange,
        smallestMannWhitneyP,
      ),
      // the newest rounds describe the machine as it is now
      roundMs: rounds.length ? rounds.slice(-3).reduce((a, x) => a + x, 0) / Math.min(3, rounds.length) : Infinity,
      iterations: Math.max(0, ...running.map((x) => x.cell.metrics[0]?.samples.length ?? 0)),
    };
  };
  for (;;) {
    if (run.tracker.closing) break;
    const states = order.map(stateOf).filter((s) => cellsOf(s.benchmark).some((x) => x.cell.status === 'pending'));
    const next = nextRound(states, remaining(), opts);
    if (!next) {
      for (const s of states)
        for (const x of cellsOf(s.benchmark))
          x.cell.sampling = { iterations: s.iterations, stopped: stopReason(s, remaining(), opts) };
      break;
    }
    run.log(
      `adaptive: ${next.benchmark} round ${next.iterations + 1} (need ${Number.isFinite(next.need) ? next.need.toFixed(2) : 'a testable sample'}, about ${Math.round(next.roundMs / 1000)} s, ${Math.round(remaining() / 1000)} s left)`,
    );
    for (const { key, cell } of cellsOf(next.benchmark)) {
      if (run.tracker.closing || cell.status !== 'pending') continue;
      const env = /** @type {Environment} */ (envs.get(cell.environmentKey));
      const t0 = performance.now();
      await runOneStep({ cell: key, iteration: next.iterations, warmup: false }, cell, env, run, `[adaptive] ${key}`);
      addRoundTime(run, cell.benchmark, next.iterations, performance.now() - t0);
      await save();
    }
  }
}

/**
 * One iteration (or warm-up) of one cell: measure, then record the metrics, or record why it failed.
 * @param {import('./plan.js').PlannedStep} step @param {CellResult} cell @param {Environment} env
 * @param {RunContext} run @param {string} progress the log line's prefix
 * @param {() => string} [eta] marks the step finished, and gives the log line's suffix (elapsed, ETA)
 * @returns {Promise<boolean>} true when the step's metrics were recorded
 */
async function runOneStep(step, cell, env, run, progress, eta = () => '') {
  const { profile, log } = run;
  const label = step.warmup ? 'warm-up' : `#${step.iteration + 1}`;
  const ctx = measureContext(step, cell, run);
  const t0 = performance.now();
  try {
    // Safety net over the per-step timeouts inside measure().
    const limit = profile.stepTimeoutMs * 10;
    const metrics = await withTimeout(
      run.benchmarks[cell.benchmark].measure(env, ctx),
      limit,
      `no result after ${limit} ms`,
    );
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
    log(`${progress} ${label}: FAILED: ${cell.reason}${eta()}`);
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
      await writeFile(file, text);
      cell.raw.push(path.relative(run.outDir, file));
    },
    // Series of measured iterations only: warm-ups are kept apart from the samples, and out of the file.
    recordSeries: (series) => {
      if (step.warmup) return;
      (cell.timeseries ??= []).push({ ...series, iteration: step.iteration });
    },
    currentStep: () => currentStep,
  };
}

/** @param {CellResult} cell @param {string} reason */
function markUnavailable(cell, reason) {
  cell.status = 'unavailable';
  cell.reason = reason;
}

/**
 * A failed cell: the reason names the benchmark, environment, distribution, iteration and step, then the
 * error's first line; the rest of the error (the tool's output) is its log tail.
 * @param {CellResult} cell @param {unknown} e @param {string} label @param {string | undefined} lastStep
 * @param {RunProfile} profile
 */
function markFailed(cell, e, label, lastStep, profile) {
  const err = /** @type {Error & {step?: string}} */ (e);
  cell.status = 'failed';
  cell.step = err.step ?? lastStep;
  const where = `${cell.benchmark} in ${cell.environmentKey} (${cell.distro}), ${label}${cell.step ? `, step ${cell.step}` : ''}`;
  cell.reason = `${where}: ${err.message.split('\n')[0]}`;
  cell.logTail = err.message.split('\n').slice(1).join('\n') || undefined;
  if (e instanceof ParseError) cell.reason += ` (raw output kept in ${cell.raw[cell.raw.length - 1] ?? 'raw/'})`;
  if (e instanceof CellTimeoutError) cell.reason = `${cell.reason} (per-step timeout ${profile.stepTimeoutMs} ms)`;
}

/**
 * Adds one iteration's metrics to the cell's series. A metric that changes unit or direction between
 * iterations is a benchmark bug, reported as such rather than mixed.
 * @param {CellResult} cell @param {import('../benchmarks/benchmark.js').Metric[]} metrics @param {boolean} warmup
 */
function record(cell, metrics, warmup) {
  for (const m of metrics) {
    let series = cell.metrics.find((s) => s.metric === m.metric);
    if (!series) {
      series = { metric: m.metric, unit: m.unit, better: m.better, samples: [], warmup: [] };
      cell.metrics.push(series);
    } else if (series.unit !== m.unit || series.better !== m.better) {
      throw new Error(`metric ${m.metric} changed from ${series.unit}/${series.better} to ${m.unit}/${m.better}`);
    }
    (warmup ? series.warmup : series.samples).push(m.value);
  }
}
