// The names that `--help` and option parsing need, without loading the modules behind them (the
// benchmarks, the environments, dockerode, the history store): every command module imports only this,
// commander and light modules at start, and loads its work in its action, so `dind-bench --help` starts
// in about the time of bare node. test/cli.test.js checks these lists against the registries they mirror.
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
export const ENVIRONMENT_NAMES = [
  'native',
  'docker',
  'dind',
  'dind-vfs',
  'dood',
  'dind-rootless',
  'dind-fuse-overlayfs',
  'dind-containerd-store',
  'sysbox',
];
/** What a run measures unless told (as src/environments/environment.js says). */
export const DEFAULT_ENVIRONMENTS = ['native', 'docker', 'dind', 'dind-vfs'];

/** Environments with an inner engine exist once per inner Engine version (as src/environments/index.js says). */
const INNER_ENGINE = ['dind', 'dind-vfs', 'dind-rootless', 'dind-fuse-overlayfs', 'dind-containerd-store', 'sysbox'];
export const isDind = (/** @type {string} */ name) => INNER_ENGINE.includes(name);
