// `docker`: the command runs in a container on the runner's own engine.
import { backingFilesystem } from '../engine/client.js';
import { lifecycleProbe, runContainer } from '../engine/containers.js';
import { withScratchVolume } from '../engine/scratch.js';

export class DockerEnvironment {
  name = 'docker';
  engine = null;
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

  /** @param {{image: string, cmd: string[], timeoutMs: number, labels?: Record<string, string>, volume?: string}} spec */
  run({ image, cmd, timeoutMs, labels = {}, volume }) {
    const tracker = this.need();
    const spec = { image, cmd, timeoutMs, labels, workingDir: '/bench' };
    if (!volume) return runContainer(this.outer, spec, tracker);
    return withScratchVolume(this.outer, tracker, volume, (mount) => runContainer(this.outer, { ...spec, ...mount }, tracker));
  }

  /** @param {{image: string, timeoutMs: number}} spec */
  probeLifecycle({ image, timeoutMs }) {
    return lifecycleProbe(this.outer, { image, timeoutMs, labels: {} }, this.need());
  }

  need() {
    if (!this.tracker) throw new Error(`${this.name}: setup() was not called`);
    return this.tracker;
  }

  async teardown() {}
}
