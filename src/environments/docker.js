// `docker`: the command runs in a container on the runner's own engine.
import { backingFilesystem } from '../engine/client.js';
import { lifecycleProbe, runContainer } from '../engine/containers.js';
import { withScratchVolume } from '../engine/scratch.js';
import { createBridge, startServiceContainer } from '../engine/services.js';
import { outerDaemonRss } from '../engine/stats.js';

export class DockerEnvironment {
  name = 'docker';
  engine = null;
  /** @type {import('../engine/services.js').NetworkMode[]} */
  networkModes = ['bridge', 'host'];
  /** @type {{name: string, remove: () => Promise<void>} | null} the run's own bridge network, made on first use */
  bridge = null;
  /** @type {import('./environment.js').EnvironmentFacts | null} */
  facts = null;

  /** @param {import('dockerode')} outer */
  constructor(outer) {
    this.outer = outer;
    /** @type {import('../engine/resources.js').ResourceTracker | null} */
    this.tracker = null;
  }

  /** @param {{tracker: import('../engine/resources.js').ResourceTracker}} ctx */
  async setup({ tracker }) {
    this.tracker = tracker;
    const info = await this.outer.info();
    this.facts = {
      name: this.name,
      engineVersion: info.ServerVersion,
      storageDriver: info.Driver,
      backingFilesystem: backingFilesystem(info),
    };
    return this.facts;
  }

  /**
   * @param {{image: string, cmd: string[], timeoutMs: number, labels?: Record<string, string>, volume?: string, network?: import('../engine/services.js').NetworkMode, onStarted?: import('../engine/containers.js').RunSpec['onStarted']}} spec
   *   network: 'bridge' (the run's own network) or 'host', for clients of a service
   */
  async run({ image, cmd, timeoutMs, labels = {}, volume, network, onStarted }) {
    const tracker = this.need();
    const networkMode = network === 'bridge' ? (await this.bridgeNetwork()).name : network;
    const spec = { image, cmd, timeoutMs, labels, workingDir: '/bench', networkMode, onStarted };
    if (!volume) return runContainer(this.outer, spec, tracker);
    return withScratchVolume(this.outer, tracker, volume, (mount) => runContainer(this.outer, { ...spec, ...mount }, tracker));
  }

  /** A long-running server; its clients use `run({network: spec.network})`. @param {import('../engine/services.js').ServiceSpec} spec */
  async startService(spec) {
    const networkName = spec.network === 'bridge' ? (await this.bridgeNetwork()).name : '';
    return startServiceContainer(this.outer, spec, { tracker: this.need(), networkName, where: this.name });
  }

  async bridgeNetwork() {
    this.bridge ??= await createBridge(this.outer, this.need());
    return this.bridge;
  }

  /** The engine workloads run on (here the runner's own), for benchmarks that drive it (build, image load). */
  engineApi() {
    return { docker: this.outer, tracker: this.need() };
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
    return probe && { probe, what: 'outer dockerd + containerd RSS (/proc VmRSS; shims and kernel memory not counted)' };
  }

  /** @param {{image: string, timeoutMs: number}} spec */
  probeLifecycle({ image, timeoutMs }) {
    return lifecycleProbe(this.outer, { image, timeoutMs, labels: {} }, this.need());
  }

  need() {
    if (!this.tracker) throw new Error(`${this.name}: setup() was not called`);
    return this.tracker;
  }

  async teardown() {
    if (this.bridge) await this.bridge.remove().catch(() => {});
    this.bridge = null;
  }
}
