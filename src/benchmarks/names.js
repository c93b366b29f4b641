// The benchmarks' names, in the order a run takes them and a report lists them. A benchmark is registered
// by its module in this folder, named as the benchmark (fio.js is `fio`), and its name here: the registry
// (index.js) loads each module by this list. This file imports nothing, so `--help` and option parsing
// read it without loading a benchmark (src/cli/names.js). test/benchmarks/registry.test.js checks that
// every module of the folder is listed and every name has its module.
export const BENCHMARK_NAMES = [
  'lifecycle',
  'sysbench',
  'stress-ng',
  'iozone',
  'fio',
  'storage',
  'iperf3',
  'redis',
  'pgbench',
  'memory',
  'build',
  'image-load',
  'isolation',
];

/**
 * What a run measures unless told (`--bench`): every benchmark but `isolation`. Its facts do not change from
 * one round to the next, and five rounds of it in the quick run's environments cost about a minute, which
 * the quick profile does not hold beside the rest (src/run/estimate.js); asked for by name, it
 * gives the mode table (docs/isolation.md).
 */
export const DEFAULT_BENCHMARKS = BENCHMARK_NAMES.filter((b) => b !== 'isolation');

/** The modules of this folder that are not benchmarks: the contract and its helpers, the registry, this list, and the workload benchmark (made per workload file by `run --workload`, not registered). */
export const NOT_BENCHMARKS = ['benchmark.js', 'index.js', 'names.js', 'workload.js'];
