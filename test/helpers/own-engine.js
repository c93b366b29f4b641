// A Docker engine of a test's own, for the fault tests that stop or restart one: the engine the test run
// uses (started by .ci/run, ./quickstart or the machine) is never theirs to stop. It is a second dockerd on
// this host with everything of its own: data-root, exec-root (so its own containerd), pidfile, unix socket
// and config file, all in one folder under /tmp (a unix socket path must stay short), and its own bridge
// interface, made here with an address of its own and named with --bridge. Never --bridge=none, and never
// the default name: a second daemon that touches docker0 deletes the running engine's bridge
// (shared/MACHINE-NOTES.md). It runs with --iptables=false, so it leaves the host's firewall rules (the
// running engine's) alone; the tests that use it need no port published and no traffic beyond its bridge.
// Started and stopped by its PID; stop() also removes the folder and the bridge.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { engineAt, waitForPing } from '../../src/engine/client.js';

/** @param {string} command */
const onPath = (command) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Why this machine cannot start an engine of a test's own, or null when it can. */
export function ownEngineUnavailable() {
  if (process.getuid?.() !== 0)
    return 'starting a Docker engine of its own needs root (as ./quickstart and .ci/run have)';
  const tools = {
    dockerd: 'Debian package docker.io, which ./quickstart and .ci/install.sh install',
    ip: "Debian package iproute2, which npm test's pretest (.ci/install-test-tools.sh) installs",
  };
  for (const [tool, from] of Object.entries(tools)) if (!onPath(tool)) return `\`${tool}\` is not installed (${from})`;
  return null;
}

/** The IPv4 prefixes in use on this host's interfaces, as "a.b.c". */
function usedPrefixes() {
  const out = execFileSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' });
  return new Set([...out.matchAll(/inet (\d+\.\d+\.\d+)\.\d+\//g)].map((m) => m[1]));
}

/**
 * @typedef {{ docker: import('dockerode'), socket: string, dir: string, bridge: string, pid: () => number,
 *   kill: (signal?: NodeJS.Signals) => Promise<void>, start: () => Promise<number>, stop: () => Promise<void> }} OwnEngine
 */

/**
 * Starts the engine and waits on its /_ping (never on a sleep).
 * @param {{prepare?: (dataRoot: string) => void}} [o] prepare: called before the engine first starts, with
 *   its data-root folder made (e.g. to mount a small filesystem of the test's below it)
 * @returns {Promise<OwnEngine>}
 */
export async function startOwnEngine({ prepare } = {}) {
  const dir = mkdtempSync('/tmp/dind-bench-engine-');
  const socket = path.join(dir, 'docker.sock');
  const log = path.join(dir, 'dockerd.log');
  const config = path.join(dir, 'daemon.json');
  // The host's /etc/docker/daemon.json, if any, is the running engine's, not this one's.
  writeFileSync(config, '{}\n');
  const bridge = `dbt${process.pid}`.slice(0, 15);
  const used = usedPrefixes();
  let prefix = '';
  for (let i = 0; i < 250 && !prefix; i++) {
    const candidate = `10.213.${(process.pid + i) % 250}`;
    if (!used.has(candidate)) prefix = candidate;
  }
  if (!prefix) throw new Error('no free 10.213.x.0/24 subnet for the engine of its own');
  // One left by an earlier test process that had this PID and was killed before its stop().
  if (existsSync(`/sys/class/net/${bridge}`)) execFileSync('ip', ['link', 'delete', bridge]);
  execFileSync('ip', ['link', 'add', 'name', bridge, 'type', 'bridge']);
  execFileSync('ip', ['addr', 'add', `${prefix}.1/24`, 'dev', bridge]);
  execFileSync('ip', ['link', 'set', bridge, 'up']);
  const args = [
    '--data-root',
    path.join(dir, 'data'),
    '--exec-root',
    path.join(dir, 'exec'),
    '--pidfile',
    path.join(dir, 'dockerd.pid'),
    '--host',
    `unix://${socket}`,
    '--config-file',
    config,
    '--bridge',
    bridge,
    '--iptables=false',
  ];
  const docker = engineAt(socket);
  // Without the test run's TMPDIR, which goes when the run ends.
  const env = { ...process.env };
  delete env.TMPDIR;
  /** @type {number} */
  let pid = 0;
  let alive = false;
  /** @type {Promise<void>} */
  let gone = Promise.resolve();

  const start = async () => {
    const out = openSync(log, 'a');
    const child = spawn('dockerd', args, { stdio: ['ignore', out, out], env });
    closeSync(out);
    alive = true;
    gone = new Promise((resolve) =>
      child.on('exit', () => {
        alive = false;
        resolve();
      }),
    );
    pid = /** @type {number} */ (child.pid);
    try {
      await waitForPing(docker, { timeoutMs: 60_000, intervalMs: 100, isAlive: async () => alive });
    } catch (e) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
      throw new Error(`the engine of its own (${dir}): ${/** @type {Error} */ (e).message}; its log ends:\n${tail}`);
    }
    return pid;
  };

  /** Ends the engine by its PID and waits until it has exited (SIGKILL after 60 s). @param {NodeJS.Signals} [signal] */
  const kill = async (signal = 'SIGTERM') => {
    if (!alive) return;
    process.kill(pid, signal);
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, 60_000, 'late')));
    if ((await Promise.race([gone, late])) === 'late') {
      process.kill(pid, 'SIGKILL');
      await gone;
    }
    clearTimeout(timer);
  };

  const stop = async () => {
    await kill();
    // Whatever the engine left mounted under its folder (nothing, after a clean stop), deepest first.
    const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[4])
      .filter((m) => m && m.startsWith(`${dir}/`))
      .sort()
      .reverse();
    for (const m of mounts) execFileSync('umount', ['-l', m]);
    rmSync(dir, { recursive: true, force: true });
    execFileSync('ip', ['link', 'delete', bridge]);
  };

  try {
    if (prepare) {
      mkdirSync(path.join(dir, 'data'));
      prepare(path.join(dir, 'data'));
    }
    await start();
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
  return { docker, socket, dir, bridge, pid: () => pid, kill, start, stop };
}

/**
 * Copies images from one engine into another (docker save | docker load, through the API).
 * @param {import('dockerode')} from @param {import('dockerode')} to @param {string[]} names
 */
export async function copyImages(from, to, names) {
  // dockerode has getImages (GET /images/get?names=...), which its types leave out.
  const tar = await /** @type {any} */ (from).getImages({ names });
  const answer = await to.loadImage(tar, { quiet: true });
  await new Promise((resolve, reject) => {
    answer.on('data', () => {});
    answer.on('end', resolve);
    answer.on('error', reject);
  });
  for (const name of names) await to.getImage(name).inspect();
}
