// The run plan, as data: which environments exist, which cells, and in which order the steps run.
// Pure, so it is tested as a table of inputs -> plan.
//
// Order: for each benchmark, each iteration (warm-up first, then measured), each distribution, every
// environment in turn (native, docker, dind, dind-vfs, docker, dind ...), so slow drift of the machine
// (thermal, noisy neighbours, page cache) hits every environment alike instead of one block of them.
import { descriptorOf, hasEngineLines } from '../environments/names.js';

/**
 * @typedef {{key: string, name: string, engine: string | null}} PlannedEnvironment
 * @typedef {{key: string, benchmark: string, env: string, distro: string, engine: string | null}} PlannedCell
 * @typedef {{cell: string, iteration: number, warmup: boolean}} PlannedStep
 */

/**
 * @param {{benchmarks: string[], environments: string[], distros: string[], engines: string[], iterations: number, warmup: number,
 *   nextLine?: import('./design.js').NextLine | null, only?: Record<string, string[]> | null}} args
 *   nextLine: cells on another inner Engine line for some benchmarks only (the quick profile's start-up on the
 *   next line): its environment comes last and has cells only for those benchmarks
 *   only: environments (by name) measured for some benchmarks only (the quick profile's dind-vfs)
 */
export function makePlan({
  benchmarks,
  environments,
  distros,
  engines,
  iterations,
  warmup,
  nextLine = null,
  only = null,
}) {
  /** @type {PlannedEnvironment[]} */
  const envs = [];
  for (const name of environments) {
    if (hasEngineLines(name)) for (const engine of engines) envs.push({ key: `${name}@${engine}`, name, engine });
    else envs.push({ key: name, name, engine: null });
  }
  const next = nextLine && {
    key: `${nextLine.environment}@${nextLine.engine}`,
    name: nextLine.environment,
    engine: nextLine.engine,
  };
  if (next && !envs.some((e) => e.key === next.key)) envs.push(next);
  /** @param {string} benchmark @param {PlannedEnvironment} env */
  const hasCells = (benchmark, env) =>
    (env.key !== next?.key || Boolean(nextLine?.benchmarks.includes(benchmark))) &&
    (!only?.[env.name] || only[env.name].includes(benchmark));
  /** @type {PlannedCell[]} */
  const cells = [];
  /** @type {PlannedStep[]} */
  const steps = [];
  for (const benchmark of benchmarks) {
    /** @type {PlannedCell[]} */
    const benchCells = [];
    for (const distro of distros) {
      for (const env of envs.filter((e) => hasCells(benchmark, e))) {
        // native runs the host's tools: one cell, whatever the image distributions.
        const hostTools = descriptorOf(env.name)?.benchImages === 'host';
        if (hostTools && distro !== distros[0]) continue;
        const cellDistro = hostTools ? 'host' : distro;
        const key = cellKey(benchmark, env.key, cellDistro);
        benchCells.push({ key, benchmark, env: env.key, distro: cellDistro, engine: env.engine });
      }
    }
    cells.push(...benchCells);
    for (let i = 0; i < warmup + iterations; i++) {
      for (const cell of benchCells) steps.push({ cell: cell.key, iteration: i - warmup, warmup: i < warmup });
    }
  }
  return { environments: envs, cells, steps };
}

/** @param {string} benchmark @param {string} envKey @param {string} distro */
export const cellKey = (benchmark, envKey, distro) => `${benchmark}/${envKey}/${distro}`;

/**
 * An A/B pair names two environments of the plan. @param {import('./adaptive.js').Pair | undefined} pair
 * @param {ReturnType<typeof makePlan>} plan
 */
export function checkPair(pair, plan) {
  const keys = plan.environments.map((e) => e.key);
  for (const k of pair ? [pair.baseline, pair.candidate] : []) {
    if (!keys.includes(k))
      throw new Error(`--baseline/--candidate ${k}: not an environment of this run (${keys.join(', ')})`);
  }
}
