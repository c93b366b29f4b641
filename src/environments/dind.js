// `dind`: the command runs in a container on an inner Docker engine that itself runs in a container on
// the runner's engine, with the inner /var/lib/docker on a volume (so the inner engine can use overlay2).
// `dind-vfs` (./dind-vfs.js) is the same without the volume. Everything that runs on the inner engine
// (commands, services, the bridge, the lifecycle probe) is ContainerEnvironment's; this module adds the
// inner daemon: starting it, its facts, its memory, its data root and its own start/stop cycle.
import { runContainer } from '../engine/containers.js';
import { execText } from '../engine/exec.js';
import { DIND_TIMELINE, buildTimeline, hostClock, stopwatch } from '../engine/startup.js';
import { containerHostPids, containerWorkingSet, pssBytes, withoutWorkloads } from '../engine/stats.js';
import { dindImage } from '../images/catalog.js';
import { pingWithin, socketOf } from '../engine/client.js';
import { ContainerEnvironment } from './container.js';

/** The DinD images' own command (images/dind/Dockerfile.*): a variant without a `cmd` of its own runs it. */
const DEFAULT_DAEMON_CMD = ['dockerd', '--host=unix:///var/run/docker.sock'];
import { loadImages, startInnerDaemon } from './dind-daemon.js';
import { environment } from '../model/environments.js';

export class DindEnvironment extends ContainerEnvironment {
  static descriptor = environment('dind');
  /** Put the inner /var/lib/docker on a volume of the outer engine. */
  volume = true;
  /** @type {import('./dind-daemon.js').DaemonVariant} how a variant starts its daemon differently */
  variant = {};
  /** @type {import('./dind-daemon.js').InnerDaemon | null} */
  daemon = null;
  /** @type {import('./environment.js').JobEngine | null} the one engine of a workload whose runner persists it */
  persistentJobEngine = null;
  /** @type {(() => Promise<void>)[]} */
  jobEngineStops = [];
  /** @returns {import('../engine/cli.js').Builder} what builds on the inner engine (its descriptor's) */
  get builder() {
    return this.descriptor.builder ?? 'BuildKit';
  }
  /** The marks of this kind's start-up timeline (../engine/startup.js): dockerd's phases. */
  timeline = DIND_TIMELINE;
  /** @param {import('dockerode')} outer @param {string} engine inner Engine version, e.g. "20.10" */
  constructor(outer, engine) {
    super(outer);
    /** @type {string} */
    this.engine = engine;
    this.outerImage = dindImage(engine);
  }

  /**
   * Starts one inner daemon of this environment's kind. A variant that starts its daemon differently
   * overrides this (setup and daemonCycle both come through here).
   * @param {import('../engine/resources.js').ResourceTracker} tracker
   * @param {{env?: string[], cmd?: string[], networks?: string[], shareDirs?: string[], binds?: string[], onMark?: (mark: 'outer_create_call' | 'outer_created' | 'ping_ok') => void}} [opts]
   *   env: the outer container's environment; cmd: instead of the variant's command (a job's daemon flags);
   *   networks, shareDirs, binds: see startInnerDaemon;
   *   onMark: the host's start-up marks (see startInnerDaemon)
   */
  startDaemon(tracker, opts = {}) {
    const env = [...(this.variant.env ?? []), ...(opts.env ?? [])];
    return startInnerDaemon(this.outer, {
      image: this.outerImage,
      volume: this.volume,
      tracker,
      ...this.variant,
      ...opts,
      env,
    });
  }

  /** @param {import('./environment.js').SetupContext} ctx */
  async setup({ images = [], tracker }) {
    const daemon = (this.daemon = await this.startDaemon(tracker));
    const imageLoadMs = await loadImages(this.outer, daemon.docker, images);
    return this.ready(
      { docker: daemon.docker, tracker, builder: this.builder },
      {
        name: this.name,
        engineVersion: daemon.version,
        storageDriver: daemon.storageDriver,
        backingFilesystem: daemon.backingFilesystem,
        dind: {
          mode: daemon.mode,
          cgroup: daemon.cgroup,
          outerImage: this.outerImage,
          start_to_ready_ms: daemon.start_to_ready_ms,
          imageLoadMs,
        },
      },
    );
  }

  /**
   * Whether the inner daemon still answers /_ping (within 5 s: a hung daemon counts as gone). Before
   * setup() there is nothing to lose.
   */
  async healthy() {
    return this.daemon ? pingWithin(this.daemon.docker, 5_000) : true;
  }

  /** The inner daemon; fails before setup() has completed. */
  needDaemon() {
    this.need();
    return /** @type {import('./dind-daemon.js').InnerDaemon} */ (this.daemon);
  }

  /**
   * Where the inner engine keeps its data, as a host path: its volume (`dind`), or the outer container's
   * writable layer (`dind-vfs`, overlay2 outer engine); else the outer data-root, which holds both.
   */
  async dataRootOnHost() {
    const c = await this.outer.getContainer(this.needDaemon().containerId).inspect();
    const mount = c.Mounts?.find((m) => m.Destination === (this.variant.dataRoot ?? '/var/lib/docker'));
    if (mount?.Source) return mount.Source;
    const upper = /** @type {{UpperDir?: string}} */ (c.GraphDriver?.Data ?? {}).UpperDir;
    return /** @type {string} */ (upper ?? (await this.outer.info()).DockerRootDir);
  }

  /**
   * What this environment itself costs in memory: the outer container's working set, from the outer
   * engine's stats. It holds the inner dockerd, containerd and shims, and while a workload runs that
   * workload too: with its own cgroup namespace the inner engine makes its containers' cgroups below
   * the outer container's, and the kernel counts them in it (hierarchical accounting). job_cost is the
   * figure without the workload (jobMemory()).
   */
  async environmentMemory() {
    const probe = containerWorkingSet(this.outer, this.needDaemon().containerId);
    return { probe, what: 'outer DinD container working set (usage - inactive_file; inner workloads included)' };
  }

  /**
   * What one more job costs the runner's memory, in the same scope as Docker's (PSS): the processes of
   * the outer container (the inner dockerd, containerd and the shims of the inner containers) plus the
   * outer container's shim on the runner's engine. The workload's own processes are left out, as in
   * Docker: `top` lists them with the outer container's (their cgroups nest below it, or, rootless
   * without cgroups, they sit in it), so they are taken out as what the inner shims hold
   * (withoutWorkloads). The outer engine's own growth for one more container is Docker's figure and is
   * not added here.
   * @returns {Promise<import('./environment.js').JobMemory>}
   */
  async jobMemory() {
    const id = this.needDaemon().containerId;
    const cost = async () => pssBytes(await withoutWorkloads(await containerHostPids(this.outer, id)));
    return {
      what: "PSS of the outer DinD container's processes (inner engine, inner shims; not the workload) + its shim",
      idle: cost,
      during: cost,
    };
  }

  /**
   * A fresh inner daemon of the same kind, started and stopped: the cost a CI job pays per DinD service,
   * with its start-up timeline (../engine/startup.js). With `firstContainer`, the fresh daemon also runs
   * its very first container before it stops: the image is loaded first (timed apart, since here it
   * comes from the outer engine, not a registry), then the container is created and started until its
   * first output. With `tls`, the entrypoint makes TLS material at start as the official image does.
   * The timeline's total is a stopwatch from this call to the last mark's event (first output, or the
   * first OK /_ping); `onEnd` is called at that event, so a caller can hold a stopwatch of its own.
   * @param {{firstContainer?: {image: string, timeoutMs: number}, tls?: boolean, onEnd?: () => void}} [opts]
   * @returns {Promise<import('./environment.js').DaemonCycle>}
   */
  async daemonCycle({ firstContainer, tls = false, onEnd } = {}) {
    const { tracker } = this.need();
    const clock = hostClock();
    const watch = stopwatch();
    clock.mark('begin');
    const last = firstContainer ? 'first_output' : 'ping_ok';
    const end = () => {
      watch.stop();
      onEnd?.();
    };
    const env = tls ? ['DOCKER_TLS_CERTDIR=/certs'] : undefined;
    const onDaemonMark = (/** @type {string} */ m) => {
      clock.mark(m);
      if (m === last) end();
    };
    const d = await this.startDaemon(tracker, { env, onMark: onDaemonMark });
    /** @type {{image_load_ms: number, first_output_ms: number} | null} */
    let first = null;
    let stop_ms = 0;
    /** @type {import('../engine/startup.js').Timeline} */
    let timeline;
    try {
      if (firstContainer) {
        const { image, timeoutMs } = firstContainer;
        clock.mark('image_load_begin');
        const image_load_ms = (await loadImages(this.outer, d.docker, [image]))[image];
        clock.mark('image_loaded');
        const onMark = (/** @type {string} */ m, /** @type {number} */ at) => {
          clock.mark(`first_${m}`, at);
          if (m === 'output') end();
        };
        const r = await runContainer(
          d.docker,
          { image, cmd: ['echo', 'first'], timeoutMs, labels: {}, onMark },
          tracker,
        );
        if (r.exitCode !== 0 || r.timings.first_output_ms === null)
          throw new Error(
            `the first container on a fresh inner daemon failed (exit ${r.exitCode}): ${(r.stdout + r.stderr).trim().split('\n')[0]}`,
          );
        // The create call, then from the start call to the first byte of output.
        first = { image_load_ms, first_output_ms: r.timings.create_ms + r.timings.first_output_ms };
      }
      const spec = this.timeline.slice(0, this.timeline.findIndex(([m]) => m === last) + 1);
      const optional = tls ? [] : ['tls_begin', 'tls_done'];
      // dockerd may write its last start-up lines just after it first answers (its log is read right after
      // /_ping when no container follows): read again, briefly, until every mark is there.
      for (let tries = 0; ; tries++) {
        const marks = { ...(await d.startupMarks()), ...clock.marks };
        timeline = buildTimeline(spec, marks, watch.ms, optional);
        if (!timeline.missing.length || tries >= 10) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      stop_ms = await d.stop();
    }
    return { start_to_ready_ms: d.start_to_ready_ms, stop_ms, ...(first ?? {}), timeline };
  }

  /**
   * Where the inner engine looks for registry CA certificates (HOST[:PORT]/ca.crt): dockerd's certs.d,
   * which BuildKit of the docker driver uses too.
   */
  certsDir = '/etc/docker/certs.d';

  /**
   * The engine one DinD job starts with: a fresh inner daemon of this kind with an empty data-root, its
   * start to the first OK /_ping timed as the job waits for it; with `persist`, one daemon for every job
   * of the run (started by the first), as a runner that keeps its DinD volume. Registries of the run are
   * trusted (--insecure-registry: plain HTTP on the run's own network, which the outer container joins) and
   * mirrors set on the daemon's command line; a job's folder is shared at its own path (`shareDirs`); a
   * team registry's CA certificates (`registryCerts`) are seen at certsDir.
   * @param {import('./environment.js').JobEngineOptions} [opts]
   * @returns {Promise<import('./environment.js').JobEngine>}
   */
  async jobEngine({
    persist = false,
    insecureRegistries = [],
    registryMirrors = [],
    networks = [],
    shareDirs = [],
    registryCerts,
  } = {}) {
    if (persist && this.persistentJobEngine) return { ...this.persistentJobEngine, readyMs: 0 };
    const { tracker } = this.need();
    const daemonOpts = this.jobDaemon({ insecureRegistries, registryMirrors });
    // A team registry's CA, where this kind of engine (and the builder it drives) looks for it.
    const binds = registryCerts ? [`${registryCerts}:${this.certsDir}:ro`] : [];
    const t0 = performance.now();
    const d = await this.startDaemon(tracker, { ...daemonOpts, networks, shareDirs, binds });
    const readyMs = performance.now() - t0;
    const stop = async () => void (await d.stop().catch(() => 0));
    const engine = {
      socket: socketOf(d.docker),
      docker: d.docker,
      readyMs,
      fresh: true,
      engineVersion: d.version,
      storageDriver: d.storageDriver,
      builder: this.builder,
      close: persist ? async () => {} : stop,
    };
    if (persist) {
      this.persistentJobEngine = engine;
      this.jobEngineStops.push(stop);
    }
    return engine;
  }

  /**
   * The outer container the inner engine runs in: a job that drives that engine can start a container
   * with its privileges, so the isolation probe looks from there too.
   * @returns {import('./environment.js').JobParent}
   */
  jobParent() {
    const container = this.outer.getContainer(this.needDaemon().containerId);
    return {
      what: `the outer ${this.name} container its engine runs in`,
      exec: (cmd, timeoutMs) => execText(container, cmd, timeoutMs),
    };
  }

  /**
   * How a job's daemon is told the run's registries: dockerd flags after the variant's command.
   * @param {{insecureRegistries: string[], registryMirrors: string[]}} registries
   * @returns {{cmd?: string[], env?: string[]}}
   */
  jobDaemon({ insecureRegistries, registryMirrors }) {
    const flags = [
      ...insecureRegistries.map((r) => `--insecure-registry=${r}`),
      ...registryMirrors.map((m) => `--registry-mirror=${m}`),
    ];
    return { cmd: [...(this.variant.cmd ?? DEFAULT_DAEMON_CMD), ...flags] };
  }

  /** An inner engine reaches a registry of the run on the run's own network. @param {{bridgeAddress: string}} registry */
  async registryAddress(registry) {
    return registry.bridgeAddress;
  }

  async teardown() {
    for (const stop of this.jobEngineStops.splice(0)) await stop();
    this.persistentJobEngine = null;
    await super.teardown();
    if (this.daemon) await this.daemon.stop().catch(() => {});
    this.daemon = null;
  }
}
