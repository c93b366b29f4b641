// The environments, by name. Adding one = a module here and a line below.
import { DindContainerdStoreEnvironment } from './dind-containerd-store.js';
import { DindFuseOverlayfsEnvironment } from './dind-fuse-overlayfs.js';
import { DindRootlessEnvironment } from './dind-rootless.js';
import { DindVfsEnvironment } from './dind-vfs.js';
import { DindEnvironment } from './dind.js';
import { DockerEnvironment } from './docker.js';
import { DoodEnvironment } from './dood.js';
import { NativeEnvironment } from './native.js';
import { SysboxEnvironment } from './sysbox.js';

export { DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES } from './environment.js';

/** The environments with an inner engine: they exist once per inner Engine version. */
const INNER_ENGINE = ['dind', 'dind-vfs', 'dind-rootless', 'dind-fuse-overlayfs', 'dind-containerd-store', 'sysbox'];
export const isDind = (/** @type {string} */ name) => INNER_ENGINE.includes(name);

/**
 * @param {string} name @param {import('dockerode')} outer @param {string | null} engine
 * @returns {import('./environment.js').Environment}
 */
export function createEnvironment(name, outer, engine) {
  switch (name) {
    case 'native':
      return new NativeEnvironment();
    case 'docker':
      return new DockerEnvironment(outer);
    case 'dind':
      return new DindEnvironment(outer, /** @type {string} */ (engine));
    case 'dind-vfs':
      return new DindVfsEnvironment(outer, /** @type {string} */ (engine));
    case 'dood':
      return new DoodEnvironment(outer);
    case 'dind-rootless':
      return new DindRootlessEnvironment(outer, /** @type {string} */ (engine));
    case 'dind-fuse-overlayfs':
      return new DindFuseOverlayfsEnvironment(outer, /** @type {string} */ (engine));
    case 'dind-containerd-store':
      return new DindContainerdStoreEnvironment(outer, /** @type {string} */ (engine));
    case 'sysbox':
      return new SysboxEnvironment(outer, /** @type {string} */ (engine));
    default:
      throw new Error(`unknown environment ${name}`);
  }
}
