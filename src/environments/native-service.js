// A long-running server as a plain process on the runner (the `native` environment), on 127.0.0.1.
// The counterpart of ../engine/services.js: same spec, same readiness polling, same handle.
import { spawn } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePorts, readyService } from '../engine/services.js';

/**
 * @param {import('../engine/services.js').ServiceSpec} spec
 * @param {import('../engine/resources.js').ResourceTracker | null} tracker Ctrl-C and failures stop the process through it
 * @returns {Promise<import('../engine/services.js').Service>}
 */
export async function startNativeService(spec, tracker) {
  const ports = await freePorts(spec.ports ?? 1);
  // Its own scratch folder as TMPDIR (a container has its own /tmp), owned by the server's user and
  // removed when it stops.
  const scratch = await mkdtemp(path.join(tmpdir(), `dind-bench-${spec.name}-`));
  let cmd = spec.cmd({ bind: '127.0.0.1', ports });
  // Servers that refuse to run as root (postgres) name a user, as their container does with `User`.
  const asUser = spec.user && userInfo().uid === 0 && spec.user !== 'root' ? spec.user : null;
  if (asUser) {
    const { uid, gid } = await idsOf(asUser);
    await chown(scratch, uid, gid);
    cmd = ['runuser', '-u', asUser, '--', ...cmd];
  }
  const t0 = performance.now();
  const child = spawn(cmd[0], cmd.slice(1), {
    cwd: scratch,
    env: { ...process.env, TMPDIR: scratch },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: stop() reaches everything the server started
  });
  /** @type {string[]} */ const log = [];
  const keep = (/** @type {Buffer} */ d) => {
    log.push(...String(d).split('\n'));
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  /** @type {number | null} */ let exitCode = null;
  const exited = new Promise((resolve) => child.on('close', (c) => resolve((exitCode = c ?? -1))));
  const spawned = new Promise((resolve, reject) => {
    child.on('spawn', resolve);
    child.on('error', (e) =>
      reject(
        new Error(
          `server ${spec.name}: cannot start \`${cmd[0]}\` on this host: ${e.message} (the native environment runs the host's own tools: install them, see .ci/install.sh)`,
        ),
      ),
    );
  });
  const group = (/** @type {NodeJS.Signals} */ sig) => {
    try {
      if (child.pid) process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (exitCode === null) {
      group('SIGTERM');
      const done = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
      if (!done) {
        group('SIGKILL');
        await exited;
      }
    }
    group('SIGKILL'); // anything left in the group
    await rm(scratch, { recursive: true, force: true });
  };
  tracker?.onCleanup(stop);
  const logTail = async (lines = 15) =>
    log
      .filter((l) => l.trim())
      .slice(-lines)
      .join('\n');
  try {
    await spawned;
  } catch (e) {
    await stop();
    throw e;
  }
  return readyService(spec, ports, 'native', {
    host: '127.0.0.1',
    t0,
    stop,
    logTail,
    probe: (probeCmd) => exitCodeOf(probeCmd, scratch),
    exited: async () => exitCode,
  });
}

/** @param {string[]} cmd @param {string} cwd @returns {Promise<number>} */
function exitCodeOf(cmd, cwd) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd[0], cmd.slice(1), { cwd, stdio: 'ignore' });
    const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
    p.on('error', (e) => (clearTimeout(timer), reject(e)));
    p.on('close', (c) => (clearTimeout(timer), resolve(c ?? -1)));
  });
}

/** @param {string} user */
function idsOf(user) {
  const id = (/** @type {string} */ flag) =>
    new Promise((resolve, reject) => {
      const p = spawn('id', [flag, user], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.on('close', (c) =>
        c === 0
          ? resolve(Number(out.trim()))
          : reject(new Error(`user ${user} does not exist on this host: install the server package that creates it`)),
      );
    });
  return Promise.all([id('-u'), id('-g')]).then(([uid, gid]) => ({
    uid: /** @type {number} */ (uid),
    gid: /** @type {number} */ (gid),
  }));
}
