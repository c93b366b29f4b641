// What each environment is, declared once: every rule that depends on the environment (is it compared
// with Docker, does it start an engine of its own, does it exist once per Docker Engine line, which images
// it needs, how a job logs in to a registry, what builds on it) asks its descriptor here, never its name.
// The environment's module (src/environments/<name>.js) binds to its descriptor by name; the site reads
// this file as it is (no imports, no Node APIs: ./README.md), so its charts apply the same rule as the
// reports.

/**
 * @typedef {{
 *   name: string,
 *   comparedWith: 'docker' | 'native' | null,
 *   ownEngine: boolean,
 *   engineLines: boolean,
 *   benchImages: 'host' | 'runner' | 'loaded',
 *   outerImage: 'dind' | 'podman' | null,
 *   credential: 'login' | 'store' | null,
 *   builder: 'BuildKit' | 'Buildah' | null,
 *   byDefault: boolean,
 * }} EnvironmentDescriptor
 *   comparedWith: the environment its cells are judged against (src/reading/pairs.js): plain Docker for every
 *   DinD variant and alternative, native for Docker itself, none for native (the baseline of baselines).
 *   ownEngine: setup starts an engine of its own and loads the run's images into it (its start is part of
 *   what a run costs: src/run/estimate.js and src/run/budget.js count it); its version is the cell's inner
 *   engine in the history.
 *   engineLines: it exists once per inner Docker Engine line (`--engine`), keyed `name@line`.
 *   benchImages: where its benchmark images come from: none (the host's own tools), the runner's engine, or
 *   loaded into its own engine.
 *   outerImage: the image of this project its engine runs in (images/dind per Engine line, images/podman).
 *   credential: how a job on it takes a registry credential: `docker login` against its engine, or stored for
 *   the CLI (Podman's Docker API logs in to plain-HTTP registries over HTTPS whatever it trusts).
 *   builder: what builds on its engine (src/engine/cli.js BUILDERS): BuildKit, or Buildah (Podman's /build).
 *   byDefault: a run measures it unless told (`--env`); the others are asked for by name.
 */

/** The fields every DinD variant shares; a variant states only what differs. */
const DIND = /** @type {const} */ ({
  comparedWith: 'docker',
  ownEngine: true,
  engineLines: true,
  benchImages: 'loaded',
  outerImage: 'dind',
  credential: 'login',
  builder: 'BuildKit',
  byDefault: false,
});

/** The fields of an environment on the runner's own engine (docker, dood). */
const ON_RUNNER = /** @type {const} */ ({
  comparedWith: 'docker',
  ownEngine: false,
  engineLines: false,
  benchImages: 'runner',
  outerImage: null,
  credential: 'login',
  builder: 'BuildKit',
  byDefault: false,
});

/** In the order a run takes them and a report lists them. @type {readonly EnvironmentDescriptor[]} */
export const ENVIRONMENTS = Object.freeze([
  {
    name: 'native',
    comparedWith: null,
    ownEngine: false,
    engineLines: false,
    benchImages: 'host',
    outerImage: null,
    credential: null,
    builder: null,
    byDefault: true,
  },
  // Docker itself is what the others are judged against, and is judged against native.
  { name: 'docker', ...ON_RUNNER, comparedWith: 'native', byDefault: true },
  { name: 'dind', ...DIND, byDefault: true },
  { name: 'dind-vfs', ...DIND, byDefault: true },
  { name: 'dood', ...ON_RUNNER },
  { name: 'dind-rootless', ...DIND },
  { name: 'dind-fuse-overlayfs', ...DIND },
  { name: 'dind-containerd-store', ...DIND },
  { name: 'sysbox', ...DIND },
  { name: 'dind-mirror', ...DIND },
  // No Docker Engine line: its version (Debian's Podman) is its image's.
  { name: 'podman', ...DIND, engineLines: false, outerImage: 'podman', credential: 'store', builder: 'Buildah' },
]);

/** @type {string[]} */
export const ENVIRONMENT_NAMES = ENVIRONMENTS.map((e) => e.name);

/** What a run measures unless told: the study's comparison and the storage trap. */
export const DEFAULT_ENVIRONMENTS = ENVIRONMENTS.filter((e) => e.byDefault).map((e) => e.name);

/**
 * The descriptor of an environment, by its name or its key ("dind@20.10"); undefined for a name this
 * version does not know (a results file of another version may hold one).
 * @param {string} nameOrKey @returns {EnvironmentDescriptor | undefined}
 */
export const descriptorOf = (nameOrKey) => ENVIRONMENTS.find((e) => e.name === String(nameOrKey).split('@')[0]);

/**
 * The descriptor of an environment this version must know, or an error naming the known ones.
 * @param {string} name @returns {EnvironmentDescriptor}
 */
export function environment(name) {
  const d = descriptorOf(name);
  if (!d) throw new Error(`unknown environment ${JSON.stringify(name)}: one of ${ENVIRONMENT_NAMES.join(', ')}`);
  return d;
}

/** Whether an environment (name or key) is judged against plain Docker. @param {string} nameOrKey */
export const comparedWithDocker = (nameOrKey) => descriptorOf(nameOrKey)?.comparedWith === 'docker';

/** Whether an environment exists once per inner Docker Engine line. @param {string} name */
export const hasEngineLines = (name) => Boolean(descriptorOf(name)?.engineLines);

/** Whether an environment starts an engine of its own at setup and loads the run's images into it. @param {string} name */
export const startsOwnEngine = (name) => Boolean(descriptorOf(name)?.ownEngine);

/** Whether its workloads run on the runner's own engine (docker, dood): one that outlives the run's jobs. @param {string} name */
export const onRunnerEngine = (name) => descriptorOf(name)?.benchImages === 'runner';

/**
 * Whether a benchmark's decision metric is defined in it for every benchmark: the environments a run measures
 * unless told that are judged against something (Docker against native, each DinD variant against Docker).
 * @param {string} name
 */
export const decidedIn = (name) => Boolean(descriptorOf(name)?.byDefault && descriptorOf(name)?.comparedWith);

/**
 * The version of the engine of its own a cell ran on, as the history records it (`engines.inner`): the one
 * its setup reported, else its Engine line; null on the runner's engine or none. A name this version does
 * not know counts by its facts (a setup that recorded `dind` facts started an engine of its own).
 * @param {string} name @param {{dind?: unknown, engineVersion?: string | null} | null | undefined} facts
 * @param {string | null | undefined} line the cell's inner Engine line
 * @returns {string | null}
 */
export function innerEngineOf(name, facts, line) {
  return ownsEngine(name, facts) ? (facts?.engineVersion ?? line ?? null) : null;
}

/**
 * Whether a cell's environment ran on an engine of its own: its descriptor says, or for a name this version
 * does not know, its facts. @param {string} name @param {{dind?: unknown} | null | undefined} facts
 */
export const ownsEngine = (name, facts) => descriptorOf(name)?.ownEngine ?? Boolean(facts?.dind);
