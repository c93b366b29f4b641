// How long a run will take, before it runs: `dind-bench plan`. Pure, from the plan and each benchmark's
// own estimateSeconds(params) (its tool time), plus a per-run container overhead per environment and the
// DinD setup; for the quick profile's own parameters, each step as a whole quick run measured it (each benchmark's
// quickStepS). The overheads were measured on this project's 2-core CI machine kind with a full quick run
// on a quiet machine (per step: the cell's time minus the same tool's time in native; per image: the
// DinD setup of 9 images of 75-410 MB, `npm run bench:quick-run`). On a busy or a faster machine they
// differ, so the figures are a planning guide, not a promise.
import { BENCHMARKS } from '../benchmarks/index.js';
import { startsOwnEngine } from '../environments/names.js';
import { paramsFor } from './params.js';

/** Seconds a container run costs beyond the tool's own time, per environment kind. */
export const RUN_OVERHEAD_S = { native: 0.1, docker: 0.5, dind: 0.5, 'dind-vfs': 3 };
/** Seconds to start one DinD environment and load one benchmark image into it. */
export const DIND_START_S = 3;
export const IMAGE_LOAD_S = 3;

/*
 * Seconds one step of the quick profile took, per environment, are each benchmark's own `quickStepS`
 * (src/benchmarks/<name>.js), measured: the cell times of a whole quick run on a quiet 2-core machine
 * (`npm run bench:quick-run`, 2026-11-27, load average 1.5 before and 1.7 after, nothing else running; every
 * cell kept, 5 iterations each, 1,071.6 s) divided by the iterations. dind-vfs was 1.4-2x slower there than
 * in the run of 2026-11-24 (docs/planning.md), lifecycle in DinD about 1.8x (each iteration now loads its
 * image into a fresh engine). The model below (tool time from the parameters plus a per-environment
 * overhead) is kept for other parameters. Used only for the quick profile's own parameters (no --config
 * override of that benchmark); an alternative is planned as dind.
 */

/**
 * One step's estimate: what the benchmark knows of itself in that environment (`known`: a workload's
 * expected job), else measured for the quick profile's own parameters (the benchmark's quickStepS), else the
 * benchmark's tool time plus the environment's overhead.
 * @param {{ measured?: Record<string, number>, envName: string, profile: string, toolS: number, overridden: boolean, known?: number }} a
 */
export function stepSeconds({ measured, envName, profile, toolS, overridden, known }) {
  if (known !== undefined) return known;
  const kind = envName in RUN_OVERHEAD_S ? envName : 'dind';
  if (profile === 'quick' && !overridden && measured?.[kind] !== undefined) return measured[kind];
  return toolS + runOverheadS(envName);
}

/**
 * One step's container overhead in an environment. An environment not measured for its own overhead (the
 * alternatives) is planned as plain DinD's; plan and the progress ETA both read it here.
 * @param {string} name
 */
export const runOverheadS = (name) =>
  RUN_OVERHEAD_S[/** @type {keyof typeof RUN_OVERHEAD_S} */ (name)] ?? RUN_OVERHEAD_S.dind;

/**
 * @param {{
 *   plan: ReturnType<typeof import('./plan.js').makePlan>, profile: string,
 *   paramOverrides?: import('./params.js').ParamOverrides, registry?: import('./params.js').BenchmarkRegistry,
 * }} args
 *   registry: where the plan's benchmark names are looked up (default: every benchmark)
 * @returns {{benchmarks: {benchmark: string, perIterationS: number, cells: number, steps: number, totalS: number}[], setupS: number, totalS: number}}
 */
export function estimateRun({ plan, profile, paramOverrides = {}, registry = BENCHMARKS }) {
  const envByKey = new Map(plan.environments.map((e) => [e.key, e]));
  const cellByKey = new Map(plan.cells.map((c) => [c.key, c]));
  /** @typedef {{benchmark: string, perIterationS: number, cells: number, steps: number, totalS: number}} Row */
  /** @type {Map<string, Row>} */
  const rows = new Map();
  const rowOf = (/** @type {string} */ benchmark) => /** @type {Row} */ (rows.get(benchmark));
  for (const c of plan.cells) {
    const bench = registry[c.benchmark];
    if (!rows.has(c.benchmark)) {
      const params = paramsFor(c.benchmark, profile, paramOverrides, registry);
      const tool = bench.estimateSeconds ? bench.estimateSeconds(params) : 5;
      rows.set(c.benchmark, { benchmark: c.benchmark, perIterationS: round(tool), cells: 0, steps: 0, totalS: 0 });
    }
    rowOf(c.benchmark).cells++;
  }
  for (const s of plan.steps) {
    const cell = /** @type {import('./plan.js').PlannedCell} */ (cellByKey.get(s.cell));
    const env = /** @type {import('./plan.js').PlannedEnvironment} */ (envByKey.get(cell.env));
    const row = rowOf(cell.benchmark);
    row.steps++;
    row.totalS += stepSeconds({
      measured: registry[cell.benchmark].quickStepS,
      envName: env.name,
      profile,
      toolS: row.perIterationS,
      overridden: cell.benchmark in paramOverrides,
      known: registry[cell.benchmark].estimateIn?.(env.name),
    });
  }
  // Each DinD environment starts once and loads the images of its own cells (the next Engine line's has
  // only lifecycle's).
  let setupS = 0;
  // Podman starts and loads like DinD, without an Engine line (engine null).
  for (const e of plan.environments.filter((x) => startsOwnEngine(x.name))) {
    const images = new Set(
      plan.cells.filter((c) => c.env === e.key).map((c) => `${registry[c.benchmark].image}:${c.distro}`),
    );
    setupS += DIND_START_S + IMAGE_LOAD_S * images.size;
  }
  // Work a benchmark does once per environment before its first measured step (a workload's unmeasured
  // first job on an engine that outlives its jobs).
  for (const e of plan.environments)
    for (const name of new Set(plan.cells.filter((c) => c.env === e.key).map((c) => c.benchmark)))
      setupS += registry[name].estimateFirstIn?.(e.name) ?? 0;
  const benchmarks = [...rows.values()].map((r) => ({ ...r, totalS: round(r.totalS) }));
  return { benchmarks, setupS, totalS: round(setupS + benchmarks.reduce((s, r) => s + r.totalS, 0)) };
}

const round = (/** @type {number} */ x) => Math.round(x * 10) / 10;

/**
 * The estimate of each step of the plan, in plan order, and of the environments' setup: what progress
 * lines start their ETA from (src/run/progress.js), the same figures `plan` adds up.
 * @param {Parameters<typeof estimateRun>[0]} args
 * @returns {{steps: number[], setupS: number}}
 */
export function stepEstimates({ plan, profile, paramOverrides = {}, registry = BENCHMARKS }) {
  const { benchmarks, setupS } = estimateRun({ plan, profile, paramOverrides, registry });
  const perIteration = new Map(benchmarks.map((b) => [b.benchmark, b.perIterationS]));
  const cellByKey = new Map(plan.cells.map((c) => [c.key, c]));
  const envByKey = new Map(plan.environments.map((e) => [e.key, e]));
  // A benchmark's unmeasured first work in an environment happens in its first step there: counted on that
  // step (not the setup), so the ETA compares that step's time with an estimate that holds it too.
  const firstSeen = new Set();
  let firstS = 0;
  const steps = plan.steps.map((s) => {
    const cell = /** @type {import('./plan.js').PlannedCell} */ (cellByKey.get(s.cell));
    const env = /** @type {import('./plan.js').PlannedEnvironment} */ (envByKey.get(cell.env));
    const first = firstSeen.has(`${cell.benchmark}|${env.key}`)
      ? 0
      : (registry[cell.benchmark]?.estimateFirstIn?.(env.name) ?? 0);
    firstSeen.add(`${cell.benchmark}|${env.key}`);
    firstS += first;
    return (
      first +
      stepSeconds({
        measured: registry[cell.benchmark]?.quickStepS,
        envName: env.name,
        profile,
        toolS: perIteration.get(cell.benchmark) ?? 5,
        overridden: cell.benchmark in paramOverrides,
        known: registry[cell.benchmark]?.estimateIn?.(env.name),
      })
    );
  });
  return { steps, setupS: setupS - firstS };
}
