// The benchmarks, by name: each name of names.js loaded from its module in this folder. Adding one =
// a module here (exporting the benchmark, `name` its file's name), its name in names.js, an entry in
// images/docker-bake.hcl for the tools it needs, and fixtures of its real output under test/fixtures/.
import { decisionOf } from '../model/decisions.js';
import { BENCHMARK_NAMES } from './names.js';

export { BENCHMARK_NAMES };

/**
 * The module's benchmark: the export whose `name` is the module's name and that can measure.
 * @param {string} name @param {Record<string, unknown>} module @returns {import('./benchmark.js').Benchmark}
 */
function benchmarkOf(name, module) {
  const found = Object.values(module).find(
    (v) => typeof v === 'object' && v !== null && /** @type {{name?: unknown}} */ (v).name === name && 'measure' in v,
  );
  if (!found)
    throw new Error(`src/benchmarks/${name}.js exports no benchmark named "${name}" (an object with name and measure)`);
  return /** @type {import('./benchmark.js').Benchmark} */ (found);
}

/**
 * Every benchmark names its question (src/model/decisions.js): a benchmark without an entry there is an
 * error when it is loaded, so a new one cannot be run without saying what it decides.
 * @param {string} name
 */
function requireDecision(name) {
  if (!decisionOf(name))
    throw new Error(
      `src/benchmarks/${name}.js has no decision metric: add it to DECISIONS in src/model/decisions.js (the number a job pays, e.g. { metrics: ['cpu.events_per_second'], resource: 'CPU' })`,
    );
}
BENCHMARK_NAMES.forEach(requireDecision);

const modules = await Promise.all(BENCHMARK_NAMES.map((name) => import(`./${name}.js`)));

/**
 * Frozen: a run takes its registry as an argument (a test passes its own), never a mutated global.
 * @type {Readonly<Record<string, import('./benchmark.js').Benchmark>>}
 */
export const BENCHMARKS = Object.freeze(
  Object.fromEntries(BENCHMARK_NAMES.map((name, i) => [name, benchmarkOf(name, modules[i])])),
);
