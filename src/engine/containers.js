// Running one command in a container through the engine API, with millisecond timings of each
// lifecycle step taken around the API calls and from the engine's own events. Used unchanged for the
// runner's engine (`docker`) and for inner engines (`dind`, `dind-vfs`).
import { PassThrough } from 'node:stream';
import { roundMs as round, since } from './timing.js';

export class CellTimeoutError extends Error {}

/**
 * @typedef {{
 *   image: string, cmd: string[], labels: Record<string, string>, timeoutMs: number,
 *   workingDir?: string, env?: string[], binds?: string[], networkMode?: string,
 *   onStarted?: (container: import('dockerode').Container, docker: import('dockerode')) => void,
 *   onMark?: (mark: 'created' | 'start_called' | 'started' | 'output', at: number) => void,
 * }} RunSpec
 *   onMark: each step's end as a performance.now() reading, for the start-up timeline (./startup.js).
 * @typedef {{
 *   stdout: string, stderr: string, exitCode: number,
 *   timings: {create_ms: number, start_ms: number, first_output_ms: number | null, run_ms: number, remove_ms: number, start_epoch_ms: number}
 * }} RunResult
 *   start_epoch_ms: wall-clock time (ms since the epoch, the kernel's clock that host and containers share)
 *   of the start call, so a workload's own timestamps can be measured from it.
 */

/**
 * Creates, starts, waits for and removes one container, collecting its output.
 * @param {import('dockerode')} docker
 * @param {RunSpec} spec
 * @param {import('./resources.js').ResourceTracker} tracker
 * @returns {Promise<RunResult>}
 */
export async function runContainer(docker, spec, tracker) {
  const { container, output, create_ms, start_ms, startT0 } = await createAndStart(
    docker,
    {
      Image: spec.image,
      Cmd: spec.cmd,
      Labels: spec.labels,
      WorkingDir: spec.workingDir,
      Env: spec.env,
      HostConfig: { Binds: spec.binds, NetworkMode: spec.networkMode },
    },
    tracker,
    spec.onMark,
  );
  try {
    spec.onStarted?.(container, docker);
    const status = await waitWithTimeout(container, spec.timeoutMs, output);
    const run_ms = since(startT0);
    await output.ended;
    const remove_ms = await timedRemove(container, tracker);
    return {
      stdout: output.stdout(),
      stderr: output.stderr(),
      exitCode: status,
      timings: {
        create_ms,
        start_ms,
        first_output_ms: output.firstAt === null ? null : round(output.firstAt - startT0),
        run_ms,
        remove_ms,
        start_epoch_ms: round(performance.timeOrigin + startT0),
      },
    };
  } catch (e) {
    await discard(container, tracker);
    throw e;
  }
}

/**
 * The lifecycle probe: a container that prints one line, then waits to be stopped. Each step is timed
 * separately, the stop by the API call and by the engine's kill -> die events.
 * @param {import('dockerode')} docker
 * @param {{image: string, labels: Record<string, string>, timeoutMs: number}} spec
 * @param {import('./resources.js').ResourceTracker} tracker
 */
export async function lifecycleProbe(docker, spec, tracker) {
  // `wait` returns as soon as the trapped TERM arrives, so the stop is immediate, not a 10 s kill.
  const cmd = ['sh', '-c', 'trap "exit 0" TERM; echo ready; sleep 600 & wait'];
  const probeId = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const events = await collectEvents(docker, { 'dind-bench.probe': probeId });
  try {
    const { container, output, create_ms, start_ms, startT0 } = await createAndStart(
      docker,
      { Image: spec.image, Cmd: cmd, Labels: { ...spec.labels, 'dind-bench.probe': probeId } },
      tracker,
    );
    try {
      await withTimeout(output.first, spec.timeoutMs, 'the probe container printed nothing');
      const first_output_ms = round(/** @type {number} */ (output.firstAt) - startT0);
      const t0 = performance.now();
      await container.stop({ t: 10 });
      const stop_ms = since(t0);
      const remove_ms = await timedRemove(container, tracker);
      const ev = await events.done(['destroy']);
      const engine = (/** @type {string} */ a, /** @type {string} */ b) =>
        ev[a] && ev[b] ? Number(ev[b] - ev[a]) / 1e6 : null;
      return {
        create_ms,
        start_ms,
        first_output_ms,
        stop_ms,
        remove_ms,
        engine_start_ms: engine('create', 'start'),
        engine_stop_ms: engine('kill', 'die'),
      };
    } catch (e) {
      await discard(container, tracker);
      throw e;
    }
  } finally {
    events.close();
  }
}

/**
 * Creates a container (labelled for the run and tracked), attaches to its output, starts it: each call
 * timed. The attach comes before the start so the first byte of output is seen when it comes.
 * @param {import('dockerode')} docker
 * @param {import('dockerode').ContainerCreateOptions & {Labels: Record<string, string>}} options
 * @param {import('./resources.js').ResourceTracker} tracker
 * @param {RunSpec['onMark']} [onMark]
 */
async function createAndStart(docker, options, tracker, onMark) {
  const t0 = performance.now();
  const container = await tracker.creating(
    docker.createContainer({ Tty: false, ...options, Labels: { ...tracker.labels, ...options.Labels } }),
  );
  const create_ms = since(t0);
  onMark?.('created', t0 + create_ms);
  tracker.add('container', container.id, docker);
  try {
    const output = await attachOutput(docker, container, onMark);
    const startT0 = performance.now();
    onMark?.('start_called', startT0);
    await container.start();
    const start_ms = since(startT0);
    onMark?.('started', startT0 + start_ms);
    return { container, output, create_ms, start_ms, startT0 };
  } catch (e) {
    await discard(container, tracker);
    throw e;
  }
}

/** @param {import('dockerode').Container} container @param {import('./resources.js').ResourceTracker} tracker */
async function timedRemove(container, tracker) {
  const t0 = performance.now();
  await container.remove({ v: true });
  const ms = since(t0);
  tracker.forget(container.id);
  return ms;
}

/** Removes a container after a failure, whatever state it is in. @param {import('dockerode').Container} container @param {import('./resources.js').ResourceTracker} tracker */
async function discard(container, tracker) {
  await container.remove({ force: true, v: true }).catch(() => {});
  tracker.forget(container.id);
}

/**
 * Attaches to a created container's output before it starts, so the first byte is seen when it comes.
 * @param {import('dockerode')} docker
 * @param {import('dockerode').Container} container
 * @param {RunSpec['onMark']} [onMark]
 */
async function attachOutput(docker, container, onMark) {
  const stream = /** @type {NodeJS.ReadableStream} */ (
    await container.attach({ stream: true, stdout: true, stderr: true })
  );
  const out = new PassThrough();
  const err = new PassThrough();
  /** @type {Buffer[]} */ const outChunks = [];
  /** @type {Buffer[]} */ const errChunks = [];
  /** @type {{firstAt: number | null, first: Promise<void>, ended: Promise<void>, stdout: () => string, stderr: () => string}} */
  const result = /** @type {any} */ ({ firstAt: null });
  result.first = new Promise((resolve) => {
    const mark = () => {
      if (result.firstAt === null) {
        result.firstAt = performance.now();
        onMark?.('output', result.firstAt); // the first byte
      }
      resolve();
    };
    out.on('data', (c) => (outChunks.push(c), mark()));
    err.on('data', (c) => (errChunks.push(c), mark()));
  });
  result.ended = new Promise((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', resolve);
  });
  docker.modem.demuxStream(stream, out, err);
  result.stdout = () => Buffer.concat(outChunks).toString('utf8');
  result.stderr = () => Buffer.concat(errChunks).toString('utf8');
  return result;
}

/**
 * @param {import('dockerode').Container} container
 * @param {number} timeoutMs
 * @param {{stdout: () => string, stderr: () => string}} output
 */
async function waitWithTimeout(container, timeoutMs, output) {
  try {
    const { StatusCode } = await withTimeout(container.wait(), timeoutMs, 'timed out');
    return StatusCode;
  } catch (e) {
    if (e instanceof CellTimeoutError) {
      await container.kill().catch(() => {});
      const tail = (output.stdout() + output.stderr()).split('\n').slice(-20).join('\n');
      throw new CellTimeoutError(`timed out after ${Math.round(timeoutMs / 1000)} s; output tail:\n${tail}`);
    }
    throw e;
  }
}

/**
 * @template T
 * @param {Promise<T>} promise @param {number} ms @param {string} message
 * @returns {Promise<T>}
 */
export function withTimeout(promise, ms, message) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new CellTimeoutError(message)), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, timeout]).finally(() => clearTimeout(timer)));
}

/**
 * An event's action under Docker's name: Podman's Docker-compatible /events says `remove` for what Docker
 * calls `destroy` (a probe waiting for `destroy` would otherwise wait out its timeout on every cycle).
 * @param {string} action
 */
const sameAs = (action) => (action === 'remove' ? 'destroy' : action);

/**
 * Streams the engine's events for containers with a label, keeping the first timeNano of each action.
 * @param {import('dockerode')} docker
 * @param {Record<string, string>} label
 */
async function collectEvents(docker, label) {
  const [[k, v]] = Object.entries(label);
  const stream = /** @type {NodeJS.ReadableStream & {destroy: () => void}} */ (
    await docker.getEvents({ filters: { type: ['container'], label: [`${k}=${v}`] } })
  );
  /** @type {Record<string, bigint>} */
  const seen = {};
  /** @type {(() => void)[]} */
  let waiters = [];
  let buf = '';
  stream.on('data', (chunk) => {
    buf += chunk.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const ev = JSON.parse(line);
      const action = sameAs(String(ev.Action || ev.status).split(':')[0]);
      if (!(action in seen)) seen[action] = BigInt(ev.timeNano);
      waiters.forEach((w) => w());
    }
  });
  stream.on('error', () => {});
  return {
    /** Waits (briefly) until the given actions were seen, then returns what was seen. */
    async done(/** @type {string[]} */ actions) {
      const all = () => actions.every((a) => a in seen);
      if (!all()) {
        await withTimeout(
          new Promise((resolve) => waiters.push(() => all() && resolve(undefined))),
          5000,
          'events',
        ).catch(() => {});
      }
      return seen;
    },
    close() {
      waiters = [];
      stream.destroy();
    },
  };
}
