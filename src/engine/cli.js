// The docker CLI, with its buildx and compose plugins, run against one engine's unix socket: what a CI
// job's script runs. Workloads drive builds (BuildKit through buildx), compose stacks and docker-CLI
// steps this way in every environment: docker (the runner's socket), DinD (the inner daemon's socket,
// exposed on the host), so the same client measures both.
//
// Each call gets DOCKER_HOST for that socket and a private DOCKER_CONFIG whose cli-plugins link the
// installed plugins: no credential or context of the host's user is read, and buildx keeps its builder
// state per run. No shell: arguments go to the CLI as they are (execFile).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

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
 * @typedef {{ socket: string, args: string[], cwd?: string, env?: Record<string, string>, timeoutMs: number, config: string }} CliSpec
 *   socket: host path of the engine's unix socket; config: a folder from cliConfig()
 * @typedef {{ exitCode: number, stdout: string, stderr: string, ms: number, timedOut: boolean }} CliResult
 */

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
    const found = PLUGIN_DIRS.map((d) => path.join(d, name)).find((f) => existsSync(f)) ?? null;
    plugins[name] = found;
    if (found) await symlink(found, path.join(dir, 'cli-plugins', name));
  }
  return { dir, plugins, remove: () => rm(dir, { recursive: true, force: true }) };
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
 * Runs a job's shell step (`sh -c SCRIPT`) with the same environment as dockerCli: its `docker`
 * commands reach the engine behind `socket`.
 * @param {Omit<CliSpec, 'args'> & { script: string }} spec
 * @returns {Promise<CliResult>}
 */
export function shellStep(spec) {
  return execTool('sh', ['-c', spec.script], spec);
}

/**
 * @param {string} command @param {string[]} args @param {Omit<CliSpec, 'args'>} spec
 * @returns {Promise<CliResult>}
 */
function execTool(command, args, { socket, cwd, env = {}, timeoutMs, config }) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT,
        env: {
          PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
          HOME: process.env.HOME ?? '/root',
          ...env,
          DOCKER_HOST: `unix://${socket}`,
          DOCKER_CONFIG: config,
          // BuildKit is the builder (buildx's default `docker` driver: the engine's own BuildKit).
          DOCKER_BUILDKIT: '1',
          BUILDKIT_PROGRESS: 'plain',
          COMPOSE_PROGRESS: 'plain',
          COMPOSE_ANSI: 'never',
          DOCKER_CLI_HINTS: 'false',
        },
      },
      (err, stdout, stderr) => {
        const ms = performance.now() - t0;
        const e = /** @type {(Error & {code?: number | string, killed?: boolean, signal?: string}) | null} */ (err);
        const timedOut = Boolean(e?.killed && e.signal === 'SIGKILL');
        const exitCode = !e ? 0 : typeof e.code === 'number' ? e.code : 127;
        const tail = timedOut ? `\n(killed: no exit within ${Math.round(timeoutMs / 1000)} s)` : '';
        const spawnError = e && typeof e.code === 'string' ? `\n${e.message}` : '';
        resolve({ exitCode, stdout: String(stdout), stderr: String(stderr) + tail + spawnError, ms, timedOut });
      },
    );
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
 * @param {string} socket
 * @returns {Promise<{ kind: 'BuildKit', buildkit: string | null, docker: string | null, buildx: string | null, compose: string | null }>}
 */
export async function builderFacts(socket) {
  const config = await cliConfig();
  try {
    return { kind: 'BuildKit', ...(await cliTools({ socket, config: config.dir })) };
  } finally {
    await config.remove();
  }
}
