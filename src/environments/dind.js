// `dind`: the command runs in a container on an inner Docker engine that itself runs in a container on
// the runner's engine, with the inner /var/lib/docker on a volume (so the inner engine can use overlay2).
// `dind-vfs` (./dind-vfs.js) is the same without the volume.
import { lifecycleProbe, runContainer } from '../engine/containers.js';
import { withScratchVolume } from '../engine/scratch.js';
import { createBridge, startServiceContainer } from '../engine/services.js';
import { containerWorkingSet } from '../engine/stats.js';
import { dindImage } from '../images/catalog.js';
import { loadImages, startInnerDaemon } from './dind-daemon.js';

export class DindEnvironment {
  name = 'dind';
  volume = true;
  /** @type {import('../engine/services.js').NetworkMode[]} bridge: the INNER engine's; host: the outer DinD container's namespace */
  networkModes = ['bridge', 'host'];
  /** @type {{name: string, remove: () => Promise<void>} | null} the run's bridge network on the inner engine, made on first use */
  bridge = null;
  /** @type {import('./environment.js').EnvironmentFacts | null} */
  facts = null;
  /** @type {import('./dind-daemon.js').InnerDaemon | null} */
  daemon = null;
  /** @type {import('../engine/resources.js').ResourceTracker | null} */
  tracker = null;

  /** @param {import('dockerode')} outer @param {string} engine inner Engine version, e.g. "20.10" */
  constructor(outer, engine) {
    this.outer = outer;
    this.engine = engine;
    this.outerImage = dindImage(engine);
  }

  /** @param {{images: string[], tracker: import('../engine/resources.js').ResourceTracker}} ctx */
  async setup({ images, tracker }) {
    this.tracker = tracker;
    this.daemon = await startInnerDaemon(this.outer, { image: this.outerImage, volume: this.volume, tracker });
    const imageLoadMs = await loadImages(this.outer, this.daemon.docker, images);
    this.facts = {
      name: this.name,
      engineVersion: this.daemon.version,
      storageDriver: this.daemon.storageDriver,
      backingFilesystem: this.daemon.backingFilesystem,
      dind: {
        mode: this.daemon.mode,
        outerImage: this.outerImage,
        start_to_ready_ms: this.daemon.start_to_ready_ms,
        imageLoadMs,
      },
    };
    return this.facts;
  }

  /**
   * @param {{image: string, cmd: string[], timeoutMs: number, labels?: Record<string, string>, volume?: string, network?: import('../engine/services.js').NetworkMode, onStarted?: import('../engine/containers.js').RunSpec['onStarted']}} spec
   *   network: 'bridge' (the run's own network on the INNER engine) or 'host' (the outer container's namespace)
   */
  async run({ image, cmd, timeoutMs, labels = {}, volume, network, onStarted }) {
    const { daemon, tracker } = this.need();
    const networkMode = network === 'bridge' ? (await this.bridgeNetwork()).name : network;
    const spec = { image, cmd, timeoutMs, labels, workingDir: '/bench', networkMode, onStarted };
    if (!volume) return runContainer(daemon.docker, spec, tracker);
    // The volume lives on the inner engine: inside the outer container (on the outer volume for `dind`,
    // on the outer container's own layer for `dind-vfs`).
    return withScratchVolume(daemon.docker, tracker, volume, (mount) => runContainer(daemon.docker, { ...spec, ...mount }, tracker));
  }

  /** A long-running server on the inner engine. @param {import('../engine/services.js').ServiceSpec} spec */
  async startService(spec) {
    const { daemon, tracker } = this.need();
    const networkName = spec.network === 'bridge' ? (await this.bridgeNetwork()).name : '';
    return startServiceContainer(daemon.docker, spec, { tracker, networkName, where: this.name });
  }

  async bridgeNetwork() {
    const { daemon, tracker } = this.need();
    this.bridge ??= await createBridge(daemon.docker, tracker);
    return this.bridge;
  }

  /** The engine workloads run on (here the inner one, through its socket), for build and image load. */
  engineApi() {
    const { daemon, tracker } = this.need();
    return { docker: daemon.docker, tracker };
  }

  /**
   * Where the inner engine keeps its data, as a host path: its volume (`dind`), or the outer container's
   * writable layer (`dind-vfs`, overlay2 outer engine); else the outer data-root, which holds both.
   */
  async dataRootOnHost() {
    const { daemon } = this.need();
    const c = await this.outer.getContainer(daemon.containerId).inspect();
    const mount = c.Mounts?.find((m) => m.Destination === '/var/lib/docker');
    if (mount?.Source) return mount.Source;
    const upper = /** @type {{UpperDir?: string}} */ (c.GraphDriver?.Data ?? {}).UpperDir;
    return /** @type {string} */ (upper ?? (await this.outer.info()).DockerRootDir);
  }

  /**
   * What this environment itself costs in memory: the outer container's working set, from the outer
   * engine's stats. It holds the inner dockerd, containerd and shims; the inner workload containers are
   * not in it (their cgroups are siblings of it, created by the inner daemon on the shared cgroup tree).
   */
  async environmentMemory() {
    const { daemon } = this.need();
    return { probe: containerWorkingSet(this.outer, daemon.containerId), what: 'outer DinD container working set (usage - inactive_file)' };
  }

  /** @param {{image: string, timeoutMs: number}} spec */
  probeLifecycle({ image, timeoutMs }) {
    const { daemon, tracker } = this.need();
    return lifecycleProbe(daemon.docker, { image, timeoutMs, labels: {} }, tracker);
  }

  /**
   * A fresh inner daemon of the same kind, started and stopped: the cost a CI job pays per DinD service.
   * With `firstContainer`, the fresh daemon also runs its very first container before it stops: the
   * image is loaded first (timed apart, since here it comes from the outer engine, not a registry), then
   * the container is created and started until its first output.
   * @param {{firstContainer?: {image: string, timeoutMs: number}}} [opts]
   */
  async daemonCycle({ firstContainer } = {}) {
    const { tracker } = this.need();
    const d = await startInnerDaemon(this.outer, { image: this.outerImage, volume: this.volume, tracker });
    /** @type {{image_load_ms: number, first_output_ms: number} | null} */
    let first = null;
    let stop_ms = 0;
    try {
      if (firstContainer) {
        const { image, timeoutMs } = firstContainer;
        const image_load_ms = (await loadImages(this.outer, d.docker, [image]))[image];
        const r = await runContainer(d.docker, { image, cmd: ['echo', 'first'], timeoutMs, labels: {} }, tracker);
        if (r.exitCode !== 0 || r.timings.first_output_ms === null) throw new Error(`the first container on a fresh inner daemon failed (exit ${r.exitCode}): ${(r.stdout + r.stderr).trim().split('\n')[0]}`);
        // The create call, then from the start call to the first byte of output.
        first = { image_load_ms, first_output_ms: r.timings.create_ms + r.timings.first_output_ms };
      }
    } finally {
      stop_ms = await d.stop();
    }
    return { start_to_ready_ms: d.start_to_ready_ms, stop_ms, ...(first ?? {}) };
  }

  need() {
    if (!this.daemon || !this.tracker) throw new Error(`${this.name}: setup() did not complete`);
    return { daemon: this.daemon, tracker: this.tracker };
  }

  async teardown() {
    if (this.bridge) await this.bridge.remove().catch(() => {});
    this.bridge = null;
    if (this.daemon) await this.daemon.stop().catch(() => {});
    this.daemon = null;
  }
}
