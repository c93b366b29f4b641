// The environments by name, and which of them have an inner engine: the one list the registry
// (./index.js), the run planner and the command line all read. It imports nothing, so `dind-bench --help`
// can list the names without loading the environments behind them (test/cli/start-up.test.js checks it).
//
// Adding an environment: its name here (and in INNER_ENGINE if it runs its own engine), its module, its
// line in ./index.js (tsc fails until every name has one), and its test.

const NAMES = /** @type {const} */ ([
  'native',
  'docker',
  'dind',
  'dind-vfs',
  'dood',
  'dind-rootless',
  'dind-fuse-overlayfs',
  'dind-containerd-store',
  'sysbox',
  'dind-mirror',
  'podman',
]);
/** @typedef {typeof NAMES[number]} EnvironmentName */
/** @type {string[]} */
export const ENVIRONMENT_NAMES = [...NAMES];

/** What a run measures unless told: the study's comparison and the storage trap. The alternatives are asked for by name. */
export const DEFAULT_ENVIRONMENTS = ['native', 'docker', 'dind', 'dind-vfs'];

/** The environments with an inner engine: they exist once per inner Engine version. @type {EnvironmentName[]} */
const INNER_ENGINE = [
  'dind',
  'dind-vfs',
  'dind-rootless',
  'dind-fuse-overlayfs',
  'dind-containerd-store',
  'sysbox',
  'dind-mirror',
];
export const isDind = (/** @type {string} */ name) => INNER_ENGINE.includes(/** @type {EnvironmentName} */ (name));

/**
 * The environments that start an engine of their own at setup and load the run's images into it: every
 * DinD variant, and podman (whose engine has no Docker Engine line).
 */
export const startsOwnEngine = (/** @type {string} */ name) => isDind(name) || name === 'podman';
