// The names that `--help` and option parsing need, without loading the modules behind them (the
// benchmarks, the environments, dockerode, the history store): every command module imports only this,
// commander and light modules at start, and loads its work in its action, so `dind-bench --help` starts
// in about the time of bare node. The environments' names come from their one list, which imports
// nothing; so do the benchmarks' (src/benchmarks/names.js: their registry, which loads every
// benchmark, is built from that list).
export { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES, hasEngineLines } from '../environments/names.js';

export { BENCHMARK_NAMES, DEFAULT_BENCHMARKS } from '../benchmarks/names.js';
