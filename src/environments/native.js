// `native`: the command runs as a plain process on the runner, no container. The baseline that shows
// what Docker itself costs. Images are ignored: the host's own tools run.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CellTimeoutError } from '../engine/containers.js';
import { SCRATCH_ENV } from '../engine/scratch.js';
import { roundMs as round, since } from '../engine/timing.js';
import { startNativeService } from './native-service.js';
import { environment } from '../model/environments.js';

/** @typedef {import('./environment.js').Environment} Environment */

/** @implements {Environment} */
export class NativeEnvironment {
  static descriptor = environment('native');

  get descriptor() {
    return NativeEnvironment.descriptor;
  }

  get name() {
    return NativeEnvironment.descriptor.name;
  }
  /** @type {string | null} */
  engine = null;
  /** @type {import('./environment.js').EnvironmentFacts | null} */
  facts = null;
  /** @type {string | null} */
  workDir = null;
  /** Servers and clients are processes on 127.0.0.1: there is no bridge to cross, only loopback. @type {import('../engine/services.js').NetworkMode[]} */
  networkModes = ['host'];
  /** @type {import('../engine/resources.js').ResourceTracker | null} */
  tracker = null;

  /** @param {Partial<import('./environment.js').SetupContext>} [ctx] images are ignored: the host's tools run */
  async setup({ tracker } = {}) {
    this.tracker = tracker ?? null;
    this.workDir = await mkdtemp(path.join(tmpdir(), 'dind-bench-native-'));
    this.facts = { name: this.name, engineVersion: null, storageDriver: null, backingFilesystem: null };
    return this.facts;
  }

  /**
   * @param {Pick<import('./environment.js').RunSpec, 'cmd' | 'timeoutMs' | 'volume'>} spec
   *   volume: a fresh temporary folder stands in for the scratch volume, named in $SCRATCH.
   * @returns {Promise<import('../engine/containers.js').RunResult>}
   */
  async run({ cmd, timeoutMs, volume }) {
    const scratch = volume ? await mkdtemp(path.join(this.workDir ?? tmpdir(), 'scratch-')) : null;
    try {
      const p = await this.spawnTimed(cmd, timeoutMs, scratch ? { [SCRATCH_ENV]: scratch } : {});
      await p.exited;
      await p.closed; // all output read
      return {
        stdout: p.stdout(),
        stderr: p.stderr(),
        exitCode: p.exitCode(),
        timings: {
          create_ms: 0,
          start_ms: p.spawn_ms,
          first_output_ms: p.firstOutputMs(),
          run_ms: since(p.t0),
          remove_ms: 0,
          start_epoch_ms: round(performance.timeOrigin + p.t0),
        },
      };
    } finally {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    }
  }

  /** A long-running server process on 127.0.0.1. @param {import('../engine/services.js').ServiceSpec} spec */
  startService(spec) {
    if (spec.network !== 'host')
      throw new Error(`native: no ${spec.network} network here, only loopback (see networkModes)`);
    return startNativeService(spec, this.tracker);
  }

  /** A process that prints a line and waits for SIGTERM: the native counterpart of a container's lifecycle. */
  async probeLifecycle(/** @type {{image?: string, timeoutMs: number}} */ { timeoutMs }) {
    const p = await this.spawnTimed(['sh', '-c', 'trap "exit 0" TERM; echo ready; sleep 600 & wait'], timeoutMs);
    await p.firstOutput;
    const first_output_ms = p.firstOutputMs();
    const s = performance.now();
    p.signal('SIGTERM');
    await p.exited;
    return { start_ms: p.spawn_ms, first_output_ms, stop_ms: since(s) };
  }

  /** @param {string[]} cmd @param {number} timeoutMs @param {Record<string, string>} [env] added to the harness's own */
  async spawnTimed(cmd, timeoutMs, env = {}) {
    const t0 = performance.now();
    // Its own process group, so a stop or a timeout reaches every process the command started (a
    // leftover child would hold the pipes open and the run would never end).
    const child = spawn(cmd[0], cmd.slice(1), {
      cwd: this.workDir ?? undefined,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const signal = (/** @type {NodeJS.Signals} */ sig) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        /* the group is gone already */
      }
    };
    /** @type {number | null} */ let firstAt = null;
    /** @type {Buffer[]} */ const out = [];
    /** @type {Buffer[]} */ const err = [];
    /** @type {() => void} */ let markFirst = () => {};
    const firstOutput = new Promise((resolve) => (markFirst = () => resolve(undefined)));
    const mark = () => {
      if (firstAt === null) firstAt = performance.now();
      markFirst();
    };
    child.stdout.on('data', (d) => (out.push(d), mark()));
    child.stderr.on('data', (d) => (err.push(d), mark()));
    /** @type {number} */ let code = -1;
    /** @type {NodeJS.Timeout | undefined} */ let timer;
    /** @type {(e: Error) => void} */ let timedOut = () => {};
    const exited = new Promise((resolve, reject) => {
      timedOut = reject;
      // 'exit' (the command itself ended), then the rest of its group is stopped so the pipes close.
      child.on('exit', (c) => {
        clearTimeout(timer);
        code = c ?? -1;
        signal('SIGKILL');
        resolve(undefined);
      });
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    const spawned = new Promise((resolve, reject) => {
      child.on('spawn', resolve);
      child.on('error', (e) =>
        reject(
          /** @type {NodeJS.ErrnoException} */ (e).code === 'ENOENT'
            ? new Error(
                `${cmd[0]} is not installed on this host (the native environment runs the host's own tools): install it, e.g. apt-get install ${cmd[0]}`,
              )
            : e,
        ),
      );
    });
    await spawned;
    timer = setTimeout(() => {
      signal('SIGKILL');
      timedOut(new CellTimeoutError(`timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    return {
      signal,
      t0,
      spawn_ms: since(t0),
      firstOutput,
      exited,
      closed,
      firstOutputMs: () => (firstAt === null ? null : round(firstAt - t0)),
      stdout: () => Buffer.concat(out).toString('utf8'),
      stderr: () => Buffer.concat(err).toString('utf8'),
      exitCode: () => code,
    };
  }

  async teardown() {
    if (this.workDir) await rm(this.workDir, { recursive: true, force: true });
    this.workDir = null;
  }
}
