// The environments, by name (./names.js lists them). Adding one = a module here, its name in ./names.js
// and a line below.
import { DindContainerdStoreEnvironment } from './dind-containerd-store.js';
import { DindFuseOverlayfsEnvironment } from './dind-fuse-overlayfs.js';
import { DindMirrorEnvironment } from './dind-mirror.js';
import { DindRootlessEnvironment } from './dind-rootless.js';
import { DindVfsEnvironment } from './dind-vfs.js';
import { DindEnvironment } from './dind.js';
import { DockerEnvironment } from './docker.js';
import { DoodEnvironment } from './dood.js';
import { NativeEnvironment } from './native.js';
import { PodmanEnvironment } from './podman.js';
import { SysboxEnvironment } from './sysbox.js';

export { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES, isDind } from './names.js';

/** @typedef {(outer: import('dockerode'), engine: string) => import('./environment.js').Environment} Make */

/**
 * How each environment is made; `engine` is the inner Engine version (null for those without one).
 * @type {Record<import('./names.js').EnvironmentName, Make>}
 */
const MAKE = {
  native: () => new NativeEnvironment(),
  docker: (outer) => new DockerEnvironment(outer),
  dind: (outer, engine) => new DindEnvironment(outer, engine),
  'dind-vfs': (outer, engine) => new DindVfsEnvironment(outer, engine),
  dood: (outer) => new DoodEnvironment(outer),
  'dind-rootless': (outer, engine) => new DindRootlessEnvironment(outer, engine),
  'dind-fuse-overlayfs': (outer, engine) => new DindFuseOverlayfsEnvironment(outer, engine),
  'dind-containerd-store': (outer, engine) => new DindContainerdStoreEnvironment(outer, engine),
  sysbox: (outer, engine) => new SysboxEnvironment(outer, engine),
  'dind-mirror': (outer, engine) => new DindMirrorEnvironment(outer, engine),
  podman: (outer) => new PodmanEnvironment(outer),
};

/**
 * @param {string} name @param {import('dockerode')} outer @param {string | null} engine
 * @returns {import('./environment.js').Environment}
 */
export function createEnvironment(name, outer, engine) {
  const make = Object.hasOwn(MAKE, name) ? MAKE[/** @type {keyof typeof MAKE} */ (name)] : undefined;
  if (!make) throw new Error(`unknown environment ${name}`);
  return make(outer, /** @type {string} */ (engine));
}
