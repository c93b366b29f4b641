// The environments, by name: each descriptor's name (../model/environments.js) loaded from its module in
// this folder, named as the environment (dind-vfs.js is `dind-vfs`). Adding one = its module, exporting its
// class with `static descriptor = environment('<name>')`, and its descriptor; test/environments/registry.test.js
// checks that every descriptor has its module and every module of the folder is an environment or listed
// below as a helper.
import { ENVIRONMENT_NAMES } from './names.js';

export { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES, hasEngineLines, startsOwnEngine } from './names.js';

/** The modules of this folder that are not environments: the contract, bases and helpers, the registry, the names. */
export const NOT_ENVIRONMENTS = [
  'container.js',
  'dind-cgroup.js',
  'dind-daemon.js',
  'engine-visible.js',
  'environment.js',
  'index.js',
  'names.js',
  'native-service.js',
];

/** @typedef {new (outer: import('dockerode'), engine: string) => import('./environment.js').Environment} Make */

/**
 * The module's environment: the exported class whose descriptor has the module's name.
 * @param {string} name @param {Record<string, unknown>} module @returns {Make}
 */
function classOf(name, module) {
  const found = Object.values(module).find(
    (v) =>
      typeof v === 'function' &&
      Object.hasOwn(v, 'descriptor') &&
      /** @type {{descriptor?: {name?: unknown}}} */ (v).descriptor?.name === name,
  );
  if (!found)
    throw new Error(
      `src/environments/${name}.js exports no environment named "${name}" (a class with static descriptor = environment('${name}'))`,
    );
  return /** @type {Make} */ (found);
}

const modules = await Promise.all(ENVIRONMENT_NAMES.map((name) => import(`./${name}.js`)));

/** @type {ReadonlyMap<string, Make>} */
const MAKE = new Map(ENVIRONMENT_NAMES.map((name, i) => [name, classOf(name, modules[i])]));

/**
 * @param {string} name @param {import('dockerode')} outer @param {string | null} engine the inner Engine
 *   line for an environment with engine lines, else null
 * @returns {import('./environment.js').Environment}
 */
export function createEnvironment(name, outer, engine) {
  const Make = MAKE.get(name);
  if (!Make) throw new Error(`unknown environment ${name}: one of ${ENVIRONMENT_NAMES.join(', ')}`);
  return new Make(outer, /** @type {string} */ (engine));
}
