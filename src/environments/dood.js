// `dood` (Docker-outside-of-Docker): the job's own container is given the runner engine's socket, and
// the containers it starts are siblings on the runner's engine, not children of an inner one. The most
// common alternative to DinD: nothing starts per job but the job container, and images and layers are
// shared with the runner. Its trade-off is isolation: whoever holds the socket controls the runner's
// engine, and through it the host (a container it starts may mount / or run privileged), and bind
// mounts name host paths, not the job's.
//
// Here setup() starts that job container with the socket mounted and checks from inside it that the
// socket is there; the workloads are then driven through the same socket by this process, standing in
// for the job's client (the same API calls the job would make). Memory (job cost) counts the job
// container too: it is what DooD adds to Docker. Start-up is Docker's: the first container on the
// runner's engine, the job container being started at setup.
import { DockerEnvironment } from './docker.js';
import { runContainer } from '../engine/containers.js';
import { execText } from '../engine/exec.js';
import { socketOf } from '../engine/client.js';
import { containerHostPids, pssBytes } from '../engine/stats.js';
import { environment } from '../model/environments.js';

export const ISOLATION =
  "DooD: the job's container holds the runner engine's socket, so the job controls that engine and " +
  "through it the host (it can start privileged containers or mount /), and sees every other job's containers";

export class DoodEnvironment extends DockerEnvironment {
  static descriptor = environment('dood');
  /** @type {string | null} the job container holding the socket */
  jobContainer = null;

  /** @param {import('./environment.js').SetupContext} ctx */
  async setup(ctx) {
    const facts = await super.setup(ctx);
    const { tracker } = ctx;
    const image = ctx.images?.[0];
    if (!image) throw new Error('dood: no benchmark image to run the job container from');
    const socket = socketOf(this.outer);
    const bind = `${socket}:/var/run/docker.sock`;
    // The socket, seen from inside a container: the check the job itself would make first.
    const cmd = ['test', '-S', '/var/run/docker.sock'];
    const check = await runContainer(this.outer, { image, cmd, binds: [bind], timeoutMs: 60_000, labels: {} }, tracker);
    if (check.exitCode !== 0) {
      throw new Error(
        `dood: the engine's socket ${socket} is not a socket inside a container (exit ${check.exitCode})`,
      );
    }
    const job = await tracker.creating(
      this.outer.createContainer({
        Image: image,
        Cmd: ['sleep', 'infinity'],
        Labels: { ...tracker.labels, 'dind-bench.role': 'dood-job' },
        HostConfig: { Binds: [bind] },
      }),
    );
    tracker.add('container', job.id, this.outer);
    await job.start();
    this.jobContainer = job.id;
    // Recorded with the results and shown in the report beside the figures.
    return Object.assign(facts, { isolation: ISOLATION });
  }

  /**
   * What one more job costs the runner's memory: Docker's figure (the workload's shim and the shared
   * engine's growth) plus the job container holding the socket (its processes and its shim).
   */
  async jobMemory() {
    const base = await super.jobMemory();
    const id = this.jobContainer;
    if (!base || !id) return base;
    const jobCost = async () => pssBytes(await containerHostPids(this.outer, id));
    return {
      what: `${base.what} + PSS of the job container holding the socket and its shim`,
      idle: base.idle,
      during: async (/** @type {string} */ workloadId) => {
        const b = await base.during(workloadId);
        return b === null ? null : b + (await jobCost());
      },
    };
  }

  /**
   * The job's own container, the one holding the runner engine's socket.
   * @returns {import('./environment.js').JobParent | null}
   */
  jobParent() {
    if (!this.jobContainer) return null;
    const container = this.outer.getContainer(this.jobContainer);
    return {
      what: "the job's container holding the runner engine's socket",
      exec: (cmd, timeoutMs) => execText(container, cmd, timeoutMs),
    };
  }

  async teardown() {
    const tracker = this.workloads?.tracker;
    await super.teardown();
    if (this.jobContainer) {
      await this.outer
        .getContainer(this.jobContainer)
        .remove({ force: true, v: true })
        .catch(() => {});
      tracker?.forget(this.jobContainer);
      this.jobContainer = null;
    }
  }
}
