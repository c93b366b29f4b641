// `docker`: the command runs in a container on the runner's own engine.
import { backingFilesystem, pingOnce, socketOf } from '../engine/client.js';
import { outerDaemonPids, outerDaemonRss, pssBytes, shimPid } from '../engine/stats.js';
import { ContainerEnvironment } from './container.js';
import { environment } from '../model/environments.js';

export class DockerEnvironment extends ContainerEnvironment {
  static descriptor = environment('docker');

  /** @param {import('./environment.js').SetupContext} ctx */
  async setup({ tracker }) {
    const info = await this.outer.info();
    return this.ready(
      { docker: this.outer, tracker },
      {
        name: this.name,
        engineVersion: info.ServerVersion,
        storageDriver: info.Driver,
        backingFilesystem: backingFilesystem(info),
      },
    );
  }

  /**
   * A job on the runner's engine: the engine is already there and keeps what earlier jobs left (a
   * persistent runner); what getting it ready costs is one /_ping.
   * @returns {Promise<import('./environment.js').JobEngine>}
   */
  async jobEngine() {
    const t0 = performance.now();
    if (!(await pingOnce(this.outer))) throw new Error(`${this.name}: the runner's engine does not answer /_ping`);
    const readyMs = performance.now() - t0;
    const info = await this.outer.info();
    return {
      socket: socketOf(this.outer),
      docker: this.outer,
      readyMs,
      fresh: false,
      engineVersion: info.ServerVersion,
      storageDriver: info.Driver,
      close: async () => {},
    };
  }

  /** The runner's engine reaches a registry of the run on loopback. @param {{hostAddress: string}} registry */
  async registryAddress(registry) {
    return registry.hostAddress;
  }

  /** Where the engine workloads run on keeps its data, as a host path: the runner engine's data-root. */
  async dataRootOnHost() {
    return /** @type {string} */ ((await this.outer.info()).DockerRootDir);
  }

  /**
   * What this environment itself costs in memory: the runner engine's dockerd and its containerd (RSS
   * from /proc), or null when that daemon is not visible from here. See ../engine/stats.js.
   */
  async environmentMemory() {
    const probe = await outerDaemonRss();
    return (
      probe && { probe, what: 'outer dockerd + containerd RSS (/proc VmRSS; shims and kernel memory not counted)' }
    );
  }

  /**
   * What one more job costs the runner's memory, in the same scope as DinD's (PSS, so shared pages are
   * not counted twice): the workload container's runtime shim, plus what the shared engine's dockerd
   * and containerd grew by since `idle()` was read. The workload's own processes are left out here as
   * in DinD (they are the same in both; the `workload.*` metrics hold them). Null when the engine's
   * daemons are not visible from here.
   * @returns {Promise<import('./environment.js').JobMemory | null>}
   */
  async jobMemory() {
    const daemons = await outerDaemonPids();
    if (!daemons) return null;
    let base = 0;
    return {
      what: "PSS of the workload container's shim + growth of the runner engine's dockerd and containerd since idle",
      idle: async () => {
        base = await pssBytes(daemons);
        return 0;
      },
      during: async (/** @type {string} */ workloadId) => {
        const shim = await shimPid(this.outer, workloadId);
        if (!shim) return null; // the workload ended between two samples
        return Math.max(0, (await pssBytes(daemons)) - base) + (await pssBytes([shim]));
      },
    };
  }
}
