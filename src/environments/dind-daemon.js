// Starting and stopping an inner Docker daemon in a container on the runner's engine.
//
// The inner daemon's /var/run is a host folder, so its socket appears on the host and the same API
// client drives it directly (no `docker exec`). Readiness is the first OK from its /_ping.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { backingFilesystem, engineAt, waitForPing } from '../engine/client.js';
import { HOST_DIR_LABEL, removeHostDir } from '../engine/resources.js';
import { cgroupAccess } from './dind-cgroup.js';
import { parseDaemonLog, parseEntrypointMarks } from '../engine/startup.js';
import { since } from '../engine/timing.js';

// Where each inner daemon's socket folder is made. The outer engine bind-mounts that folder, so the
// path must mean the same folder to this process and to the engine: /tmp does when both share a
// machine; a runner in a container (ARC dind mode, act in container mode) sets DIND_BENCH_SOCKET_DIR to
// a folder mounted at the same path in the runner and on the engine's host. Short: a unix socket path
// must stay under 108 bytes.
export const SOCKET_PARENT = path.resolve(process.env.DIND_BENCH_SOCKET_DIR || '/tmp');

/**
 * What an outer container needs when `--privileged` is refused (as on hosts whose capability bounding
 * set lacks CAP_SYS_RESOURCE): every capability but that one, no seccomp/AppArmor confinement, all
 * devices, and writable /proc/sys for Engine 26's IPv6 setup. The cgroup tree is the container's own
 * (./dind-cgroup.js).
 */
export const CAPABILITY_SET = {
  CapAdd: ['ALL'],
  CapDrop: ['SYS_RESOURCE'],
  SecurityOpt: ['seccomp=unconfined', 'apparmor=unconfined'],
  DeviceCgroupRules: ['a *:* rwm'],
  // The API form of `--security-opt systempaths=unconfined`: nothing masked, nothing read-only in /proc.
  MaskedPaths: [],
  ReadonlyPaths: [],
};

/** @type {Map<import('dockerode'), 'privileged' | 'capabilities'>} how DinD starts on each outer engine, learned once */
const startModes = new Map();

/**
 * @typedef {{
 *   docker: import('dockerode'), containerId: string, mode: StartMode,
 *   start_to_ready_ms: number, version: string, storageDriver: string, backingFilesystem: string | null,
 *   cgroupVersion: string | null, cgroup: import('./dind-cgroup.js').CgroupChoice, stop: () => Promise<number>,
 *   startupMarks: () => Promise<Record<string, number>>,
 * }} InnerDaemon
 *   startupMarks: the entrypoint's and dockerd's own start-up marks, wall-clock ms (../engine/startup.js)
 */

/** The daemon configuration file of a variant, in the folder shared with the host (its /var/run). */
const DAEMON_CONFIG = 'dind-bench-daemon.json';
export const DAEMON_CONFIG_IN_CONTAINER = `/var/run/${DAEMON_CONFIG}`;

/**
 * How a DinD variant starts its inner daemon differently (all optional; see the dind-* environments).
 * @typedef {{
 *   cmd?: string[], devices?: string[], socket?: string, dataRoot?: string, runtime?: string,
 *   daemonConfig?: Record<string, unknown>, env?: string[], userns?: Record<string, unknown>,
 * }} DaemonVariant
 *   cmd: the outer container's command (the entrypoint runs it); devices: host devices it needs, e.g.
 *   /dev/fuse; socket: the inner socket's path inside the shared /var/run (default docker.sock);
 *   dataRoot: where the volume is mounted (default /var/lib/docker); runtime: an OCI runtime of the
 *   runner's engine that isolates the outer container (sysbox-runc), instead of privileges;
 *   daemonConfig: a daemon.json, written to DAEMON_CONFIG_IN_CONTAINER (cmd passes --config-file);
 *   env: the outer container's environment (a run's own, e.g. TLS, is added to it);
 *   userns: the outer container's whole security set (mode `userns`), for an engine that runs rootless in
 *   a user namespace of its own and so needs neither `--privileged` nor the capability set (podman).
 */

/**
 * Starts an inner daemon and waits until it answers /_ping.
 * @param {import('dockerode')} outer
 * @param {{image: string, volume: boolean, tracker: import('../engine/resources.js').ResourceTracker, readyTimeoutMs?: number,
 *   env?: string[], networks?: string[], shareDirs?: string[], binds?: string[], onMark?: (mark: 'outer_create_call' | 'outer_created' | 'ping_ok') => void} & DaemonVariant} opts
 *   volume: put the inner /var/lib/docker on a named volume (overlay2 works) or not (the storage fallback).
 *   env: the outer container's environment, e.g. DOCKER_TLS_CERTDIR=/certs (TLS material made at start).
 *   onMark: the host's marks of the start-up timeline, called when each step ends.
 *   networks: networks of the run's the outer container joins besides the default bridge (the run's registry);
 *   shareDirs: host folders it sees at the same path (a job's folder, whose paths the compose CLI on the host
 *   gives the inner engine's bind mounts); binds: more binds of the outer container (a registry's CA
 *   certificates, read-only).
 * @returns {Promise<InnerDaemon>}
 */
export async function startInnerDaemon(outer, opts) {
  await mkdir(SOCKET_PARENT, { recursive: true });
  // The inner engine's /var/run. Goes with the container that uses it (HOST_DIR_LABEL: the run's cleanup,
  // or a later attempt's sweep when this run is killed outright), not before: a live engine writes there.
  const socketDir = await mkdtemp(path.join(SOCKET_PARENT, 'dind-bench-'));
  try {
    return await startIn(socketDir, outer, opts);
  } catch (e) {
    // Whatever was started has been removed by now (startOuter, readyDaemon): the folder has no user left.
    await removeHostDir(socketDir).catch(() => {});
    throw e;
  }
}

/**
 * startInnerDaemon's work, with the inner engine's /var/run at socketDir on the host.
 * @param {string} socketDir @param {import('dockerode')} outer @param {Parameters<typeof startInnerDaemon>[1]} opts
 * @returns {Promise<InnerDaemon>}
 */
async function startIn(
  socketDir,
  outer,
  {
    image,
    volume,
    tracker,
    readyTimeoutMs = 60_000,
    env,
    onMark,
    networks = [],
    shareDirs = [],
    binds: more = [],
    ...variant
  },
) {
  // Its own cgroup namespace where the engine has them, never more of the host's tree than needed.
  const cgroup = await cgroupAccess(outer);
  const dataRoot = volume ? await innerVolume(outer, tracker, variant.dataRoot ?? '/var/lib/docker') : null;
  const binds = [
    ...cgroup.binds,
    `${socketDir}:/var/run`,
    ...(dataRoot ? [dataRoot.bind] : []),
    ...shareDirs.map((d) => `${d}:${d}`),
    ...more,
  ];
  if (variant.daemonConfig) await writeFile(path.join(socketDir, DAEMON_CONFIG), JSON.stringify(variant.daemonConfig));
  const devices = (variant.devices ?? []).map((d) => ({ PathOnHost: d, PathInContainer: d, CgroupPermissions: 'rwm' }));

  const learned = startModes.get(outer);
  /** @type {StartMode[]} */
  const tryModes = variant.runtime
    ? ['runtime']
    : variant.userns
      ? ['userns']
      : learned
        ? [learned]
        : ['privileged', 'capabilities'];
  /** @type {string[]} */
  const refusals = [];
  for (const mode of tryModes) {
    const hostConfig = {
      Binds: binds,
      Devices: devices,
      // A runtime such as sysbox-runc isolates the inner engine (and its cgroups) itself: no privileges asked for.
      ...(mode === 'runtime' ? {} : cgroup.hostConfig),
      ...securityOf(mode, variant),
    };
    const labels = { ...tracker.labels, 'dind-bench.role': 'dind', [HOST_DIR_LABEL]: socketDir };
    const spec = { Image: image, Env: env, Cmd: variant.cmd, Labels: labels };
    const started = await startOuter(
      outer,
      tracker,
      { ...spec, HostConfig: hostConfig },
      socketDir,
      onMark,
      networks,
    ).catch((e) => {
      // The engine refused this mode (e.g. "unable to apply caps: operation not permitted").
      refusals.push(`${mode}: ${engineMessage(e)}`);
      return null;
    });
    if (!started) continue;
    if (mode === 'privileged' || mode === 'capabilities') startModes.set(outer, mode);
    const inner = engineAt(path.join(socketDir, variant.socket ?? 'docker.sock'));
    const ready = { inner, readyTimeoutMs, onMark, socketDir, cgroup: cgroup.record, removeVolume: dataRoot?.remove };
    return readyDaemon(tracker, started, mode, image, ready);
  }
  throw new Error(`the engine refused to start a DinD container in every mode:\n  ${refusals.join('\n  ')}`);
}

/**
 * The outer container's privileges in each mode.
 * @param {StartMode} mode @param {DaemonVariant} variant
 */
function securityOf(mode, variant) {
  if (mode === 'runtime') return { Runtime: variant.runtime };
  if (mode === 'userns') return variant.userns ?? {};
  return mode === 'privileged' ? { Privileged: true } : CAPABILITY_SET;
}

/**
 * @typedef {'privileged' | 'capabilities' | 'runtime' | 'userns'} StartMode
 * @typedef {(mark: 'outer_create_call' | 'outer_created' | 'ping_ok') => void} OnMark
 */

/**
 * A volume of the run's for the inner data-root, and how to remove it with the daemon (a job's images can
 * be large); one still named by a container being removed is left to the run's cleanup.
 * @param {import('dockerode')} outer @param {import('../engine/resources.js').ResourceTracker} tracker @param {string} dataRoot
 */
async function innerVolume(outer, tracker, dataRoot) {
  const vol = await tracker.creating(outer.createVolume({ Labels: tracker.labels }));
  tracker.add('volume', vol.name, outer);
  const remove = () =>
    outer
      .getVolume(vol.name)
      .remove()
      .then(() => tracker.forget(vol.name))
      .catch(() => {});
  return { bind: `${vol.name}:${dataRoot}`, remove };
}

/**
 * Creates and starts the outer container; on a refusal removes what was created and throws the engine's error.
 * @param {import('dockerode')} outer @param {import('../engine/resources.js').ResourceTracker} tracker
 * @param {import('dockerode').ContainerCreateOptions} spec @param {string} hostDir its HOST_DIR_LABEL folder
 * @param {OnMark | undefined} onMark @param {string[]} [networks] joined before it starts
 * @returns {Promise<{container: import('dockerode').Container, t0: number}>}
 */
async function startOuter(outer, tracker, spec, hostDir, onMark, networks = []) {
  /** @type {import('dockerode').Container | null} */
  let container = null;
  try {
    onMark?.('outer_create_call');
    container = await tracker.creating(outer.createContainer(spec));
    onMark?.('outer_created');
    tracker.add('container', container.id, outer, hostDir);
    for (const network of networks) await outer.getNetwork(network).connect({ Container: container.id });
    const t0 = performance.now();
    await container.start();
    return { container, t0 };
  } catch (e) {
    if (container) {
      await container.remove({ force: true }).catch(() => {});
      tracker.forget(container.id);
    }
    throw e;
  }
}

/**
 * Waits for the inner daemon's first OK and returns its handle; a daemon that does not come up is removed
 * and named with its logs.
 * @param {import('../engine/resources.js').ResourceTracker} tracker
 * @param {{container: import('dockerode').Container, t0: number}} started @param {StartMode} mode @param {string} image
 * @param {{ inner: import('dockerode'), readyTimeoutMs: number, onMark?: OnMark, socketDir: string,
 *   cgroup: Awaited<ReturnType<typeof cgroupAccess>>['record'], removeVolume?: () => Promise<unknown> }} o
 */
async function readyDaemon(tracker, { container, t0 }, mode, image, o) {
  const isAlive = async () => Boolean((await container.inspect()).State.Running);
  try {
    await waitForPing(o.inner, { timeoutMs: o.readyTimeoutMs, isAlive });
    o.onMark?.('ping_ok');
    // From the outer start call to the inner daemon's first OK: what a CI job waits for.
    const start_to_ready_ms = since(t0);
    const info = await o.inner.info();
    return {
      docker: o.inner,
      containerId: container.id,
      mode,
      start_to_ready_ms,
      version: info.ServerVersion,
      storageDriver: info.Driver,
      backingFilesystem: backingFilesystem(info),
      cgroupVersion: info.CgroupVersion ?? null,
      cgroup: o.cgroup,
      startupMarks: () => startupMarks(container, o.socketDir),
      stop: async () => {
        const s = performance.now();
        await container.stop({ t: 30 }).catch((e) => {
          if (/** @type {{statusCode?: number}} */ (e).statusCode !== 304) throw e; // 304: already stopped
        });
        const stop_ms = since(s);
        await container.remove({ force: true, v: true });
        tracker.forget(container.id);
        await removeHostDir(o.socketDir);
        await o.removeVolume?.();
        return stop_ms;
      },
    };
  } catch (e) {
    const logs = await logTail(container);
    await container.remove({ force: true, v: true }).catch(() => {});
    tracker.forget(container.id);
    throw new Error(`the inner daemon (${image}, ${mode}) did not come up: ${engineMessage(e)}\n${logs}`);
  }
}

/**
 * Copies images from the outer engine into an inner one without a registry (save -> load, streamed).
 * @param {import('dockerode')} outer @param {import('dockerode')} inner @param {string[]} images
 * @returns {Promise<Record<string, number>>} milliseconds per image
 */
export async function loadImages(outer, inner, images) {
  /** @type {Record<string, number>} */
  const times = {};
  for (const image of images) {
    const t0 = performance.now();
    const tar = await outer.getImage(image).get();
    const res = await inner.loadImage(tar, { quiet: true });
    await drain(res);
    times[image] = Math.round(performance.now() - t0);
  }
  return times;
}

/** @param {NodeJS.ReadableStream} stream */
function drain(stream) {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (d) => (text += d));
    stream.on('end', () =>
      /"error"/.test(text) ? reject(new Error(`image load failed: ${text.slice(0, 500)}`)) : resolve(text),
    );
    stream.on('error', reject);
  });
}

/** The engine's own words from a dockerode error. @param {unknown} e */
export function engineMessage(e) {
  const err = /** @type {{json?: {message?: string}, message?: string}} */ (e);
  return (err.json && err.json.message) || err.message || String(e);
}

/**
 * The entrypoint's marks (a file in the folder shared with the host) and dockerd's phase lines from its
 * log, as wall-clock ms. Either may be absent (an image without the marking entrypoint): no marks then.
 * @param {import('dockerode').Container} container @param {string} socketDir
 */
async function startupMarks(container, socketDir) {
  const file = await readFile(path.join(socketDir, 'dind-bench-marks'), 'utf8').catch(() => '');
  const buf = /** @type {Buffer} */ (/** @type {unknown} */ (await container.logs({ stdout: true, stderr: true })));
  return { ...parseEntrypointMarks(file.slice(0, 10_000)), ...parseDaemonLog(demuxLog(buf.subarray(0, 4 << 20))) };
}

/**
 * The text of a non-TTY container's log: frames of an 8-byte header (stream, 3 zero bytes, big-endian
 * length) then the payload. A truncated last frame is cut.
 * @param {Buffer} buf
 */
export function demuxLog(buf) {
  /** @type {Buffer[]} */
  const parts = [];
  let i = 0;
  while (i + 8 <= buf.length) {
    const len = buf.readUInt32BE(i + 4);
    parts.push(buf.subarray(i + 8, Math.min(buf.length, i + 8 + len)));
    i += 8 + len;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** @param {import('dockerode').Container} container */
async function logTail(container) {
  try {
    const buf = /** @type {Buffer} */ (
      /** @type {unknown} */ (await container.logs({ stdout: true, stderr: true, tail: 15 }))
    );
    // Multiplexed frames: strip the 8-byte headers by keeping printable text only.
    // eslint-disable-next-line no-control-regex -- the frame headers are control bytes
    return 'inner daemon log (last lines):\n' + buf.toString('utf8').replace(/[\x00-\x08\x0e-\x1f]/g, '');
  } catch {
    return '';
  }
}
