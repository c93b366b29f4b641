// `sysbox`: DinD under the Sysbox runtime (sysbox-runc), which runs the outer container unprivileged
// with a user namespace and virtualised /proc and /sys, so an inner engine works without
// `--privileged` or the capability set. Sysbox must be installed on the runner (a host package with a
// kernel-facing service; it is not in Debian): where the runner's engine lists no `sysbox-runc`
// runtime, the environment is unavailable, saying so and how to install it.
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

export const SYSBOX_RUNTIME = 'sysbox-runc';
export const SYSBOX_INSTALL =
  'install Sysbox on the runner (the sysbox-ce package from github.com/nestybox/sysbox releases, ' +
  'which registers the sysbox-runc runtime with the engine and restarts it), then run again';

export class SysboxEnvironment extends DindEnvironment {
  static descriptor = environment('sysbox');
  variant = { runtime: SYSBOX_RUNTIME };

  /** @param {import('./environment.js').SetupContext} ctx */
  async setup(ctx) {
    const runtimes = Object.keys((await this.outer.info()).Runtimes ?? {});
    if (!runtimes.includes(SYSBOX_RUNTIME)) {
      const have = runtimes.join(', ') || 'none';
      throw new Error(
        `the runner's engine has no ${SYSBOX_RUNTIME} runtime (its runtimes: ${have}): ${SYSBOX_INSTALL}`,
      );
    }
    return super.setup(ctx);
  }
}
