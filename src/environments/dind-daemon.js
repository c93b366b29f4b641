// Starting and stopping an inner Docker daemon in a container on the runner's engine.
//
// The inner daemon's /var/run is a host folder, so its socket appears on the host and the same API
// client drives it directly (no `docker exec`). Readiness is the first OK from its /_ping.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { backingFilesystem, engineAt, waitForPing } from '../engine/client.js';
import { since } from '../engine/timing.js';

// Short folder under /tmp: a unix socket path must stay under 108 bytes.
const SOCKET_PARENT = '/tmp';

/**
 * What an outer container needs when `--privileged` is refused (as on hosts whose capability bounding
 * set lacks CAP_SYS_RESOURCE): every capability but that one, no seccomp/AppArmor confinement, all
 * devices, a writable cgroup tree, and writable /proc/sys for Engine 26's IPv6 setup.
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
 *   docker: import('dockerode'), containerId: string, mode: 'privileged' | 'capabilities',
 *   start_to_ready_ms: number, version: string, storageDriver: string, backingFilesystem: string | null,
 *   cgroupVersion: string | null, stop: () => Promise<number>,
 * }} InnerDaemon
 */

/**
 * Starts an inner daemon and waits until it answers /_ping.
 * @param {import('dockerode')} outer
 * @param {{image: string, volume: boolean, tracker: import('../engine/resources.js').ResourceTracker, readyTimeoutMs?: number}} opts
 *   volume: put the inner /var/lib/docker on a named volume (overlay2 works) or not (the storage fallback).
 * @returns {Promise<InnerDaemon>}
 */
export async function startInnerDaemon(outer, { image, volume, tracker, readyTimeoutMs = 60_000 }) {
  const socketDir = await mkdtemp(path.join(SOCKET_PARENT, 'dind-bench-'));
  tracker.onCleanup(() => rm(socketDir, { recursive: true, force: true }));
  const binds = ['/sys/fs/cgroup:/sys/fs/cgroup:rw', `${socketDir}:/var/run`];
  if (volume) {
    const vol = await tracker.creating(outer.createVolume({ Labels: tracker.labels }));
    tracker.add('volume', vol.name, outer);
    binds.push(`${vol.name}:/var/lib/docker`);
  }

  const tryModes = startModes.has(outer) ? [startModes.get(outer)] : ['privileged', 'capabilities'];
  /** @type {string[]} */
  const refusals = [];
  for (const mode of /** @type {('privileged'|'capabilities')[]} */ (tryModes)) {
    /** @type {import('dockerode').Container | null} */
    let container = null;
    let t0 = 0;
    try {
      container = await tracker.creating(
        outer.createContainer({
          Image: image,
          Labels: { ...tracker.labels, 'dind-bench.role': 'dind' },
          HostConfig: {
            Binds: binds,
            ...(mode === 'privileged' ? { Privileged: true } : CAPABILITY_SET),
          },
        }),
      );
      tracker.add('container', container.id, outer);
      t0 = performance.now();
      await container.start();
    } catch (e) {
      // The engine refused this mode (e.g. "unable to apply caps: operation not permitted").
      refusals.push(`${mode}: ${engineMessage(e)}`);
      if (container) {
        await container.remove({ force: true }).catch(() => {});
        tracker.forget(container.id);
      }
      continue;
    }
    startModes.set(outer, mode);
    const inner = engineAt(path.join(socketDir, 'docker.sock'));
    const started = container;
    const isAlive = async () => Boolean((await started.inspect()).State.Running);
    try {
      await waitForPing(inner, { timeoutMs: readyTimeoutMs, isAlive });
      // From the outer start call to the inner daemon's first OK: what a CI job waits for.
      const start_to_ready_ms = since(t0);
      const info = await inner.info();
      return {
        docker: inner,
        containerId: container.id,
        mode,
        start_to_ready_ms,
        version: info.ServerVersion,
        storageDriver: info.Driver,
        backingFilesystem: backingFilesystem(info),
        cgroupVersion: info.CgroupVersion ?? null,
        stop: async () => {
          const s = performance.now();
          await container.stop({ t: 30 }).catch((e) => {
            if (/** @type {{statusCode?: number}} */ (e).statusCode !== 304) throw e; // 304: already stopped
          });
          const stop_ms = since(s);
          await container.remove({ force: true, v: true });
          tracker.forget(container.id);
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
  throw new Error(`the engine refused to start a DinD container in every mode:\n  ${refusals.join('\n  ')}`);
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
    stream.on('end', () => (/"error"/.test(text) ? reject(new Error(`image load failed: ${text.slice(0, 500)}`)) : resolve(text)));
    stream.on('error', reject);
  });
}

/** The engine's own words from a dockerode error. @param {unknown} e */
export function engineMessage(e) {
  const err = /** @type {{json?: {message?: string}, message?: string}} */ (e);
  return (err.json && err.json.message) || err.message || String(e);
}

/** @param {import('dockerode').Container} container */
async function logTail(container) {
  try {
    const buf = /** @type {Buffer} */ (/** @type {unknown} */ (await container.logs({ stdout: true, stderr: true, tail: 15 })));
    // Multiplexed frames: strip the 8-byte headers by keeping printable text only.
    return 'inner daemon log (last lines):\n' + buf.toString('utf8').replace(/[\x00-\x08\x0e-\x1f]/g, '');
  } catch {
    return '';
  }
}
