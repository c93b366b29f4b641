// One Docker API client (dockerode) for every engine dind-bench talks to: the runner's engine and,
// through the inner daemon's socket, each DinD engine. Timings are then taken the same way in both.
import Docker from 'dockerode';
import { setTimeout as delay } from 'node:timers/promises';

/** The runner's engine: DOCKER_HOST if it names a unix socket, the default socket otherwise. */
export function outerEngine() {
  const host = process.env.DOCKER_HOST;
  if (host && !host.startsWith('unix://')) {
    throw new Error(
      `DOCKER_HOST=${host}: dind-bench only talks to an engine over a unix socket (no TCP without TLS). ` +
        'Unset DOCKER_HOST or point it at unix:///path/to/docker.sock.',
    );
  }
  return new Docker({ socketPath: host ? host.slice('unix://'.length) : '/var/run/docker.sock' });
}

/** An engine behind a given unix socket, e.g. an inner DinD daemon's socket exposed on the host. */
/** @param {import('dockerode')} docker @returns {string} the unix socket the client talks to */
export const socketOf = (docker) =>
  /** @type {{socketPath?: string}} */ (docker.modem).socketPath ?? 'the configured socket';

/** @param {string} socketPath */
export function engineAt(socketPath) {
  return new Docker({ socketPath });
}

/**
 * Asks the engine for /_ping once. Resolves true when it answers OK, false otherwise.
 * @param {Docker} docker
 */
export async function pingOnce(docker) {
  try {
    const answer = await docker.ping();
    return String(answer) === 'OK';
  } catch {
    return false;
  }
}

/**
 * One /_ping within a bound: an engine that hangs counts as gone, as one that refuses does.
 * @param {Docker} docker @param {number} ms @returns {Promise<boolean>}
 */
export async function pingWithin(docker, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return /** @type {boolean} */ (await Promise.race([pingOnce(docker), late]));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls /_ping until the engine answers or the deadline passes: readiness is observed, never slept on.
 * @param {Docker} docker
 * @param {{timeoutMs?: number, intervalMs?: number, isAlive?: () => Promise<boolean>}} [options]
 *   isAlive: checked between polls, so a daemon that died is reported at once instead of at timeout.
 * @returns {Promise<number>} milliseconds until the first OK answer
 */
export async function waitForPing(docker, { timeoutMs = 60_000, intervalMs = 10, isAlive } = {}) {
  const start = performance.now();
  for (;;) {
    if (await pingOnce(docker)) return performance.now() - start;
    const waited = performance.now() - start;
    if (waited > timeoutMs) {
      throw new Error(`the engine did not answer /_ping within ${Math.round(timeoutMs / 1000)} s`);
    }
    if (isAlive && !(await isAlive())) throw new Error('the daemon exited before answering /_ping');
    await delay(intervalMs);
  }
}

/**
 * Fails with the doctor's advice when the engine does not answer.
 * @param {Docker} docker
 */
export async function requireEngine(docker) {
  if (await pingOnce(docker)) return;
  throw new Error(
    'no Docker engine answers on ' +
      socketOf(docker) +
      '. Start one (as root: `bash .ci/start-engine.sh`, or `systemctl start docker`), then run `dind-bench doctor`.',
  );
}

/**
 * The filesystem under the engine's storage driver, from `docker info` (null when the driver has none,
 * as vfs).
 * @param {{DriverStatus?: string[][]}} info
 */
export function backingFilesystem(info) {
  const row = (info.DriverStatus || []).find((r) => r[0] === 'Backing Filesystem');
  return row ? row[1] : null;
}
