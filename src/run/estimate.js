// How long a run will take, before it runs: `dind-bench plan`. Pure, from the plan and each benchmark's
// own estimateSeconds(params) (its tool time), plus a per-run container overhead per environment and the
// DinD setup. The overheads were measured on this project's 2-core CI machine kind with a full quick run
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
  /** @type {Map<string, {benchmark: string, perIterationS: number, cells: number, steps: number, totalS: number}>} */
  const rows = new Map();
  for (const c of plan.cells) {
    const bench = registry[c.benchmark];
    if (!rows.has(c.benchmark)) {
      const params = paramsFor(c.benchmark, profile, paramOverrides, registry);
      const tool = bench.estimateSeconds ? bench.estimateSeconds(params) : 5;
      rows.set(c.benchmark, { benchmark: c.benchmark, perIterationS: round(tool), cells: 0, steps: 0, totalS: 0 });
    }
    /** @type {any} */ (rows.get(c.benchmark)).cells++;
  }
  for (const s of plan.steps) {
    const cell = /** @type {import('./plan.js').PlannedCell} */ (cellByKey.get(s.cell));
    const env = /** @type {import('./plan.js').PlannedEnvironment} */ (envByKey.get(cell.env));
    const row = /** @type {any} */ (rows.get(cell.benchmark));
    row.steps++;
    row.totalS += row.perIterationS + runOverheadS(env.name);
  }
  const images = new Set(plan.cells.map((c) => `${registry[c.benchmark].image}:${c.distro}`));
  // Podman starts and loads like DinD, without an Engine line (engine null).
  const dindEnvs = plan.environments.filter((e) => startsOwnEngine(e.name)).length;
  const setupS = dindEnvs * (DIND_START_S + IMAGE_LOAD_S * images.size);
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
  const steps = plan.steps.map((s) => {
    const cell = /** @type {import('./plan.js').PlannedCell} */ (cellByKey.get(s.cell));
    const env = /** @type {import('./plan.js').PlannedEnvironment} */ (envByKey.get(cell.env));
    return (perIteration.get(cell.benchmark) ?? 5) + runOverheadS(env.name);
  });
  return { steps, setupS };
}
