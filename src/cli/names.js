// The names that `--help` and option parsing need, without loading the modules behind them (the
// benchmarks, the environments, dockerode, the history store): every command module imports only this,
// commander and light modules at start, and loads its work in its action, so `dind-bench --help` starts
// in about the time of bare node. The environments' names come from their one list, which imports
// nothing; the benchmarks' are a copy (their registry loads every benchmark), checked against the
// registry by test/cli/start-up.test.js.
export { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES, isDind } from '../environments/names.js';

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
];
