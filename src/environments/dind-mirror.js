// `dind-mirror`: DinD whose jobs pull through a registry mirror, the fix teams apply to DinD's cold
// pulls: a pull-through cache (the distribution registry with `proxy.remoteurl`, ../engine/registry.js)
// that lives on the runner for the whole run, in front of the registry the run's images come from. Each
// job still starts from an empty inner engine, as in `dind`; what changes is where it pulls from: the
// mirror, warm after one unmeasured job (as a runner's mirror is warm from earlier jobs).
//
// The inner engine addresses the mirror by its address (as a proxy-cache project of a registry is
// addressed), not through the daemon's `--registry-mirror`, which Docker applies to Docker Hub names only.
// Other benchmarks than workloads run here exactly as in `dind`.
import { startRegistry } from '../engine/registry.js';
import { DindEnvironment } from './dind.js';
import { environment } from '../model/environments.js';

export class DindMirrorEnvironment extends DindEnvironment {
  static descriptor = environment('dind-mirror');
  primesJobs = true;
  /** @type {Promise<import('../engine/registry.js').Registry> | null} the mirror, started by the first job that pulls */
  mirror = null;

  /** The mirror in front of `registry` (started once; removed with the run). @param {import('../engine/registry.js').Registry} registry */
  async registryAddress(registry) {
    const { tracker } = this.need();
    this.mirror ??= startRegistry({ docker: this.outer, tracker, image: registry.image, proxyOf: registry });
    return (await this.mirror).bridgeAddress;
  }

  async teardown() {
    const mirror = await this.mirror?.catch(() => null);
    this.mirror = null;
    await mirror?.stop();
    await super.teardown();
  }
}
