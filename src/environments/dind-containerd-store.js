// `dind-containerd-store`: DinD with the containerd image store (Engine 24 and later, opt-in until 29):
// images and layers are kept by containerd's snapshotter (storage driver `overlayfs`) instead of the
// Engine's own graph driver (`overlay2`). The daemon must say it uses it; an Engine that ignores the
// setting (20.10 has no such feature) makes the environment unavailable with what it reported.
import { DAEMON_CONFIG_IN_CONTAINER } from './dind-daemon.js';
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

export class DindContainerdStoreEnvironment extends DindEnvironment {
  static descriptor = environment('dind-containerd-store');
  variant = {
    cmd: ['dockerd', '--host=unix:///var/run/docker.sock', `--config-file=${DAEMON_CONFIG_IN_CONTAINER}`],
    daemonConfig: { features: { 'containerd-snapshotter': true } },
  };

  /** @param {import('./environment.js').SetupContext} ctx */
  async setup(ctx) {
    const facts = await super.setup(ctx);
    const info = await this.needDaemon().docker.info();
    const status = /** @type {string[][]} */ (info.DriverStatus ?? []);
    const driverType = status.find((r) => r[0] === 'driver-type')?.[1];
    if (driverType !== 'io.containerd.snapshotter.v1') {
      throw new Error(
        `the inner Engine ${facts.engineVersion} did not enable the containerd image store ` +
          `(storage driver ${facts.storageDriver}, driver-type ${driverType ?? 'none'}): it came with Engine 24; use --engine 26.1`,
      );
    }
    return facts;
  }
}
