// What every container environment shares: commands, services and the lifecycle probe run on one
// engine (the runner's for `docker`, the inner one for DinD), a bridge network made on first use, and a
// teardown that removes it. A subclass says in setup() which engine that is (`this.ready(...)`) and adds
// only what differs.
import { lifecycleProbe, runContainer } from '../engine/containers.js';
import { withScratchVolume } from '../engine/scratch.js';
import { CONTAINER_TIMELINE, buildTimeline, hostClock, stopwatch } from '../engine/startup.js';
import { createBridge, startServiceContainer } from '../engine/services.js';

/** @typedef {import('./environment.js').Environment} Environment */

/**
 * The descriptor an environment's class states (`static descriptor = environment('<name>')`).
 * @param {object} instance @returns {import('../model/environments.js').EnvironmentDescriptor}
 */
export function descriptorOfClass(instance) {
  const d = /** @type {{descriptor?: import('../model/environments.js').EnvironmentDescriptor}} */ (
    instance.constructor
  ).descriptor;
  if (!d)
    throw new Error(`${instance.constructor.name} states no descriptor: add static descriptor = environment('<name>')`);
  return d;
}

/** @implements {Environment} */
export class ContainerEnvironment {
  /** What this environment is (../model/environments.js): each environment's class states its own. */
  get descriptor() {
    return descriptorOfClass(this);
  }

  get name() {
    return this.descriptor.name;
  }

  /** @type {string | null} */
  engine = null;
  /** @type {import('../engine/services.js').NetworkMode[]} */
  networkModes = ['bridge', 'host'];
  /** @type {import('./environment.js').EnvironmentFacts | null} */
  facts = null;
  /** @type {{name: string, remove: () => Promise<void>} | null} the run's bridge network, made on first use */
  bridge = null;
  /** @type {import('./environment.js').EngineApi | null} the engine workloads run on, once set up */
  workloads = null;

  /** @param {import('dockerode')} outer the runner's engine */
  constructor(outer) {
    this.outer = outer;
  }

  /**
   * @param {import('./environment.js').SetupContext} _ctx
   * @returns {Promise<import('./environment.js').EnvironmentFacts>}
   */
  async setup(_ctx) {
    throw new Error(`${this.name}: setup() is not implemented`);
  }

  /**
   * Records the engine workloads run on and this environment's facts: the end of every setup().
   * @param {import('./environment.js').EngineApi} workloads @param {import('./environment.js').EnvironmentFacts} facts
   */
  ready(workloads, facts) {
    this.workloads = workloads;
    this.facts = facts;
    return facts;
  }

  /** The engine workloads run on and the run's tracker; fails before setup() has completed. */
  need() {
    if (!this.workloads) throw new Error(`${this.name}: setup() did not complete`);
    return this.workloads;
  }

  /** For benchmarks that drive the engine themselves (build, image load). */
  engineApi() {
    return this.need();
  }

  /** @param {import('./environment.js').RunSpec} spec */
  async run({ image, cmd, timeoutMs, labels = {}, volume, network, onStarted }) {
    const { docker, tracker } = this.need();
    const networkMode = network === 'bridge' ? (await this.bridgeNetwork()).name : network;
    const spec = { image, cmd, timeoutMs, labels, workingDir: '/bench', networkMode, onStarted };
    if (!volume) return runContainer(docker, spec, tracker);
    // The volume lives on the workloads' engine (for DinD: inside the outer container).
    return withScratchVolume(docker, tracker, volume, (mount) => runContainer(docker, { ...spec, ...mount }, tracker));
  }

  /** A long-running server; its clients use `run({network: spec.network})`. @param {import('../engine/services.js').ServiceSpec} spec */
  async startService(spec) {
    const { docker, tracker } = this.need();
    const networkName = spec.network === 'bridge' ? (await this.bridgeNetwork()).name : '';
    return startServiceContainer(docker, spec, { tracker, networkName, where: this.name });
  }

  /** The run's own bridge network on the workloads' engine. */
  async bridgeNetwork() {
    const { docker, tracker } = this.need();
    this.bridge ??= await createBridge(docker, tracker);
    return this.bridge;
  }

  /** @param {{image: string, timeoutMs: number}} spec */
  probeLifecycle({ image, timeoutMs }) {
    const { docker, tracker } = this.need();
    return lifecycleProbe(docker, { image, timeoutMs, labels: {} }, tracker);
  }

  /**
   * The start-up timeline of a container on the workloads' engine, ready and with its image: create,
   * attach, start to first output (../engine/startup.js): the part of DinD's start-up Docker also pays.
   * Its total is a stopwatch from this call to the first output; `onEnd` is called at the first output,
   * so a caller can hold a stopwatch of its own.
   * @param {{image: string, timeoutMs: number, onEnd?: () => void}} spec
   */
  async startupTimeline({ image, timeoutMs, onEnd }) {
    const { docker, tracker } = this.need();
    const clock = hostClock();
    const watch = stopwatch();
    clock.mark('begin');
    const onMark = (/** @type {string} */ m, /** @type {number} */ at) => {
      clock.mark(`first_${m}`, at);
      if (m !== 'output') return;
      watch.stop();
      onEnd?.();
    };
    const r = await runContainer(docker, { image, cmd: ['echo', 'first'], timeoutMs, labels: {}, onMark }, tracker);
    if (r.exitCode !== 0 || r.timings.first_output_ms === null) {
      throw new Error(`${this.name}: the start-up probe container failed (exit ${r.exitCode})`);
    }
    return buildTimeline(CONTAINER_TIMELINE, clock.marks, watch.ms);
  }

  async teardown() {
    if (this.bridge) await this.bridge.remove().catch(() => {});
    this.bridge = null;
    this.workloads = null;
  }
}
