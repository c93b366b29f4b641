// The environments, by name. Adding one = a module here and a line below.
import { DindVfsEnvironment } from './dind-vfs.js';
import { DindEnvironment } from './dind.js';
import { DockerEnvironment } from './docker.js';
import { NativeEnvironment } from './native.js';

export { ENVIRONMENT_NAMES } from './environment.js';

/** DinD environments exist once per inner Engine version. */
export const isDind = (/** @type {string} */ name) => name === 'dind' || name === 'dind-vfs';

/**
 * @param {string} name @param {import('dockerode')} outer @param {string | null} engine
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
    default:
      throw new Error(`unknown environment ${name}`);
  }
}
