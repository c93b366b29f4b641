// The docker CLI, with its buildx and compose plugins, run against one engine's unix socket: what a CI
// job's script runs. Workloads drive builds (BuildKit through buildx), compose stacks and docker-CLI
// steps this way in every environment: docker (the runner's socket), DinD (the inner daemon's socket,
// exposed on the host), so the same client measures both.
//
// Each call gets DOCKER_HOST for that socket and a private DOCKER_CONFIG whose cli-plugins link the
// installed plugins: no credential or context of the host's user is read, and buildx keeps its builder
// state per run. No shell: arguments go to the CLI as they are.
//
// Each call runs in a process group of its own: when it exits, anything it started that is still running
// (a step's `server &`) is named in the result (leftRunning) and ended, and a timeout ends the whole group,
// not the first process only. Groups still running when dind-bench exits (Ctrl-C) are ended then.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as pidns from './step-pidns.js';

/**
 * Where the plugins are looked for, in the docker CLI's own order: the user's, then the system's (Debian's
 * docker-buildx and docker-compose packages put them in /usr/libexec/docker/cli-plugins).
 */
const PLUGIN_DIRS = [
  path.join(os.homedir(), '.docker', 'cli-plugins'),
  '/usr/local/lib/docker/cli-plugins',
  '/usr/local/libexec/docker/cli-plugins',
  '/usr/lib/docker/cli-plugins',
  '/usr/libexec/docker/cli-plugins',
];
const PLUGINS = ['docker-buildx', 'docker-compose'];
/** Output kept per stream: a build log can be long; the end is what says why it failed. */
const MAX_OUTPUT = 4 * 2 ** 20;

/**
 * @typedef {{ socket: string, args: string[], cwd?: string, env?: Record<string, string>, timeoutMs: number, config: string, input?: string, builder?: Builder }} CliSpec
 *   socket: host path of the engine's unix socket; config: a folder from cliConfig(); input: written to its
 *   standard input (else it has none); builder: the engine's builder (BUILDERS), BuildKit unless told
 * @typedef {{ exitCode: number, stdout: string, stderr: string, ms: number, timedOut: boolean, leftRunning: string[] }} CliResult
 *   leftRunning: the processes the command started that were still running when it exited ("PID command"),
 *   ended since
 */

/**
 * The builders an engine builds with, and how the docker CLI reaches each. BuildKit: `docker buildx
 * build` with buildx's default `docker` driver (the engine's own BuildKit). Buildah: Podman's
 * Docker-compatible /build is Buildah (the version Podman vendors), which the CLI reaches with its
 * classic `docker build` (DOCKER_BUILDKIT=0): Podman serves no BuildKit session. Buildah keeps its cache
 * as image layers, with no build cache apart from them to prune or import (`cacheImport` false).
 * @typedef {'BuildKit' | 'Buildah'} Builder
 * @type {Record<Builder, {build: string[], buildkit: boolean, cacheImport: boolean}>}
 */
export const BUILDERS = {
  BuildKit: { build: ['buildx', 'build', '--progress=plain', '--load'], buildkit: true, cacheImport: true },
  Buildah: { build: ['build'], buildkit: false, cacheImport: false },
};

/**
 * A private DOCKER_CONFIG folder with the installed buildx and compose plugins linked in. Removed by
 * the returned `remove()` (the caller's ResourceTracker calls it, also on failure and Ctrl-C).
 * @returns {Promise<{ dir: string, plugins: Record<string, string | null>, remove: () => Promise<void> }>}
 */
export async function cliConfig() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dind-bench-cli-'));
  await mkdir(path.join(dir, 'cli-plugins'));
  /** @type {Record<string, string | null>} */
  const plugins = {};
  for (const name of PLUGINS) {
    const found = findPlugin(name);
    plugins[name] = found;
    if (found) await symlink(found, path.join(dir, 'cli-plugins', name));
  }
  return { dir, plugins, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Where the docker CLI would find plugin `name` ("docker-compose"), or null: not installed.
 * @param {string} name @returns {string | null}
 */
export function findPlugin(name) {
  return PLUGIN_DIRS.map((d) => path.join(d, name)).find((f) => existsSync(f)) ?? null;
}

/**
 * Runs `docker ARGS...` against the engine behind `socket`, timed from spawn to exit.
 * @param {CliSpec} spec
 * @returns {Promise<CliResult>}
 */
export function dockerCli(spec) {
  return execTool('docker', spec.args, spec);
}

/**
 * `docker login ADDRESS` into the DOCKER_CONFIG `config` (the run's own, never the user's ~/.docker), the
 * password on standard input: no command line, environment or output holds it. The engine checks the
 * credential with the registry (POST /auth), so it is logged in where `socket`'s engine reaches `address`.
 * @param {{ socket: string, config: string, address: string, username: string, password: string, timeoutMs: number }} o
 * @returns {Promise<CliResult>}
 */
export function dockerLogin({ socket, config, address, username, password, timeoutMs }) {
  const args = ['login', '--username', username, '--password-stdin', address];
  return execTool('docker', args, { socket, config, timeoutMs, input: password });
}

/**
 * Stores a registry credential in the CLI config folder as `docker login` would, without asking the engine:
 * the CLI then sends it with each pull (X-Registry-Auth). For Podman's Docker API, whose /auth (Podman 4.3)
 * reaches a registry over HTTPS whatever its registries.conf trusts, while its pulls follow registries.conf.
 * The folder is the run's own (cliConfig), mode 0700; the file is written 0600.
 * @param {{ config: string, address: string, username: string, password: string }} login
 */
export async function storeLogin({ config, address, username, password }) {
  const file = path.join(config, 'config.json');
  const doc = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  doc.auths = { ...doc.auths, [address]: { auth: Buffer.from(`${username}:${password}`).toString('base64') } };
  await writeFile(file, JSON.stringify(doc), { mode: 0o600 });
}

/**
 * Runs a job's shell step (`sh -c SCRIPT`) with the same environment as dockerCli: its `docker`
 * commands reach the engine behind `socket`.
 * @param {Omit<CliSpec, 'args'> & { script: string }} spec
 * @returns {Promise<CliResult>}
 */
export function shellStep(spec) {
  // In a PID namespace of its own where one can be made (./step-pidns.js): then a process that left the
  // step's group (setsid, a double fork) is named and ended with the step too.
  const flags = pidns.available();
  if (!flags) return execTool('sh', ['-c', spec.script], spec);
  const [command, args] = pidns.inNamespace(flags, spec.script);
  return execTool(command, args, { ...spec, hold: true });
}

/** Process groups of calls still running: ended if dind-bench exits first. @type {Set<number>} */
const groups = new Set();
let endGroupsOnExit = false;

/** Ends process group `pgid`, if any of it is left. @param {number} pgid */
function endGroup(pgid) {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // none left
  }
}

/**
 * The running processes of group `pgid` ("PID command"; zombies, already ended, are not). Without /proc,
 * whether any is left at all.
 * @param {number} pgid @returns {string[]}
 */
export function groupMembers(pgid) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    try {
      process.kill(-pgid, 0);
      return [`(a process of group ${pgid})`];
    } catch {
      return [];
    }
  }
  const out = [];
  for (const pid of pids) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "PID (COMM) STATE PPID PGRP ...": COMM may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) !== pgid || state === 'Z' || state === 'X') continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // ended meanwhile: its PID says enough
    }
    out.push(`${pid} ${cmd.slice(0, 200)}`.trim());
  }
  return out;
}

/** How long a step's leftover processes get to start their own command before they are named. */
const SETTLE_MS = 100;

/**
 * The processes a step left in its group, named. A child forked just before the shell exited may not have
 * started its command yet (it still reads as the shell): looked at again a moment later, it names itself.
 * @param {number} pgid @param {(left: string[]) => void} done
 */
function leftovers(pgid, done) {
  const found = groupMembers(pgid);
  if (!found.length) return done([]);
  setTimeout(() => {
    const again = groupMembers(pgid);
    done(again.length ? again : found);
  }, SETTLE_MS);
}

/** How long the output may stay open after the group is ended (a process that left the group holds it). */
const CLOSE_GRACE_MS = 2_000;

/**
 * Writes `input` to a child's standard input and closes it (at once when there is none: end of file, as
 * /dev/null gives). A tool that exits without reading it says why by its exit.
 * @param {import('node:stream').Writable} stdin @param {string | undefined} input
 */
function feed(stdin, input) {
  stdin.on('error', () => {});
  stdin.end(input ?? '');
}

/**
 * A tool's whole environment: PATH and HOME of the run's, nothing else of it (no secret the run was given
 * reaches a job's command), the caller's additions, and the engine, config and builder it runs against.
 * @param {{socket: string, env: Record<string, string>, config: string, builder: Builder}} o
 */
function toolEnv({ socket, env, config, builder }) {
  return {
    PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: process.env.HOME ?? '/root',
    ...env,
    DOCKER_HOST: `unix://${socket}`,
    DOCKER_CONFIG: config,
    // BuildKit is the builder (buildx's default `docker` driver: the engine's own BuildKit), unless the
    // engine builds with Buildah (BUILDERS).
    DOCKER_BUILDKIT: BUILDERS[builder].buildkit ? '1' : '0',
    BUILDKIT_PROGRESS: 'plain',
    COMPOSE_PROGRESS: 'plain',
    COMPOSE_ANSI: 'never',
    DOCKER_CLI_HINTS: 'false',
  };
}

/**
 * @param {string} command @param {string[]} args @param {Omit<CliSpec, 'args'> & { hold?: boolean }} spec
 *   hold: the command is a step in its own PID namespace (./step-pidns.js), whose PID 1 reports the step's
 *   exit on fd 3 and waits there while the run names what the step left in the namespace
 * @returns {Promise<CliResult>}
 */
function execTool(command, args, { socket, cwd, env = {}, timeoutMs, config, input, builder = 'BuildKit', hold }) {
  if (!endGroupsOnExit) {
    endGroupsOnExit = true;
    process.on('exit', () => groups.forEach(endGroup));
  }
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      // Its own process group (and session), so that it and whatever it starts can be ended together.
      detached: true,
      stdio: hold ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      env: toolEnv({ socket, env, config, builder }),
    });
    feed(child.stdin, input);
    const pgid = child.pid;
    if (pgid) groups.add(pgid);
    /** What the step left in its namespace, and when its shell exited (hold). */
    const held = { left: /** @type {string[]} */ ([]), ms: /** @type {number | null} */ (null) };
    if (hold && pgid) holdNamespace(/** @type {import('node:net').Socket} */ (child.stdio[3]), pgid, t0, held);
    /** @type {{ stdout: Buffer[], stderr: Buffer[] }} */
    const chunks = { stdout: [], stderr: [] };
    const sizes = { stdout: 0, stderr: 0 };
    let timedOut = false;
    let overflow = '';
    let spawnError = '';
    /** @type {{ code: number | null, signal: string | null, ms: number, leftRunning: string[] } | null} */
    let exited = null;
    let done = false;
    for (const name of /** @type {const} */ (['stdout', 'stderr'])) {
      child[name].on('data', (/** @type {Buffer} */ b) => {
        sizes[name] += b.length;
        if (sizes[name] > MAX_OUTPUT) {
          if (!overflow) overflow = `${name} maxBuffer length exceeded`;
          if (pgid) endGroup(pgid);
          return;
        }
        chunks[name].push(b);
      });
    }
    const timer = setTimeout(() => {
      timedOut = true;
      if (pgid) endGroup(pgid);
    }, timeoutMs);
    /** @type {NodeJS.Timeout | undefined} */
    let grace;
    const finish = (/** @type {string} */ note = '') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      if (pgid) groups.delete(pgid);
      const e = exited ?? { code: null, signal: null, ms: performance.now() - t0, leftRunning: [] };
      const exitCode = spawnError || overflow ? 127 : (e.code ?? 127);
      const tail = timedOut ? `\n(killed: no exit within ${Math.round(timeoutMs / 1000)} s)` : '';
      resolve({
        exitCode,
        stdout: Buffer.concat(chunks.stdout).toString(),
        stderr:
          Buffer.concat(chunks.stderr).toString() +
          tail +
          (spawnError ? `\n${spawnError}` : '') +
          (overflow ? `\n${overflow}` : '') +
          note,
        ms: e.ms,
        timedOut,
        leftRunning: e.leftRunning,
      });
    };
    child.on('error', (err) => {
      spawnError = err.message;
      finish();
    });
    let closed = false;
    /** @param {number | null} code @param {NodeJS.Signals | null} signal @param {number} ms @param {string[]} leftRunning */
    const record = (code, signal, ms, leftRunning) => {
      if (pgid) endGroup(pgid);
      exited = { code, signal, ms, leftRunning };
      if (closed) return finish();
      // The output ends when the last process holding it does; one that left the group may hold it on.
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(`\n(output cut ${CLOSE_GRACE_MS / 1000} s after the exit: a process outside its group held it open)`);
      }, CLOSE_GRACE_MS);
    };
    child.on('exit', (code, signal) => {
      const ms = performance.now() - t0;
      clearTimeout(timer);
      // What it started and left running is named, then ended with the rest of its group.
      if (!pgid || timedOut) return record(code, signal, ms, []);
      leftovers(pgid, (left) => record(code, signal, held.ms ?? ms, [...held.left, ...left]));
    });
    child.on('close', () => {
      closed = true;
      if (exited) finish();
    });
  });
}

/**
 * The run's side of a step's PID 1 (./step-pidns.js): when it reports the step's shell exited, the
 * processes still in the namespace are named (looked at again a moment later, as `leftovers` does, so a
 * child forked just before the exit names itself), then PID 1 is let go, and the kernel ends them with it.
 * @param {import('node:net').Socket} control fd 3 @param {number} pid unshare's @param {number} t0
 * @param {{ left: string[], ms: number | null }} held filled in
 */
function holdNamespace(control, pid, t0, held) {
  control.on('error', () => {});
  control.once('data', () => {
    held.ms = performance.now() - t0;
    const release = (/** @type {string[]} */ left) => {
      held.left = left;
      control.end('\n');
    };
    const found = pidns.namespaceMembers(pid);
    if (!found.length) return release([]);
    setTimeout(() => {
      const again = pidns.namespaceMembers(pid);
      release(again.length ? again : found);
    }, SETTLE_MS);
  });
}

/**
 * The versions of the client tools a workload uses, for the results' provenance (null: not installed
 * or not answering). `buildkit` is the builder's BuildKit version on the engine behind `socket`.
 * @param {{ socket: string, config: string }} where
 * @returns {Promise<{ docker: string | null, buildx: string | null, compose: string | null, buildkit: string | null }>}
 */
export async function cliTools({ socket, config }) {
  const run = async (/** @type {string[]} */ args) => {
    const r = await dockerCli({ socket, args, timeoutMs: 30_000, config });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  };
  const builder = await run(['buildx', 'inspect']);
  return {
    docker: await run(['version', '--format', '{{.Client.Version}}']),
    buildx: (await run(['buildx', 'version']))?.split(/\s+/)[1] ?? null,
    compose: await run(['compose', 'version', '--short']),
    buildkit: builder?.match(/^BuildKit version:\s*(\S+)/m)?.[1] ?? null,
  };
}

/**
 * The builder a build on the engine behind `socket` uses, for the results: BuildKit (buildx's `docker`
 * driver, the engine's own BuildKit) with its version, and the client tools' versions.
 * On an engine that builds with Buildah, BuildKit and buildx play no part: both are null.
 * @param {string} socket @param {Builder} [builder]
 * @returns {Promise<{ kind: Builder, buildkit: string | null, docker: string | null, buildx: string | null, compose: string | null }>}
 */
export async function builderFacts(socket, builder = 'BuildKit') {
  const config = await cliConfig();
  try {
    const tools = await cliTools({ socket, config: config.dir });
    if (builder === 'Buildah') return { kind: builder, ...tools, buildkit: null, buildx: null };
    return { kind: builder, ...tools };
  } finally {
    await config.remove();
  }
}
