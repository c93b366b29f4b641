// The CLI as a child process: run to its end (runCli, what most tests need), or, for the tests on the real
// engine, its stderr lines collected as they come (streamCli), a callback per line (to act mid-run: kill
// it, restart an engine), and what the process tree left behind, read once the engine's removals have settled.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { OWNER_LABEL } from '../../src/engine/resources.js';

export const BIN = new URL('../../bin/dind-bench.js', import.meta.url).pathname;

/**
 * What a finished CLI process came to. error: why it could not be started or was ended (a timeout).
 * @typedef {{ status: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, error?: Error }} CliResult
 */

/**
 * The CLI run to its end with `args`, synchronously, its output as text.
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, input?: string, timeout?: number, bin?: string, nodeArgs?: string[] }} [o]
 *   env: the child's whole environment (default: this process's); timeout: ms before it is killed;
 *   bin: another copy of the CLI (default: this checkout's); nodeArgs: node's own options before it
 * @returns {CliResult}
 */
export function runCli(args, { env, cwd, input, timeout, bin = BIN, nodeArgs = [] } = {}) {
  const r = spawnSync(process.execPath, [...nodeArgs, bin, ...args], { encoding: 'utf8', env, cwd, input, timeout });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

/** A progress line of a measured or warm-up step: [i/n] CELL #k: ... */
export const STEP = /^\[(\d+)\/(\d+)\] (\S+) (#\d+|warm-up): \d+ metrics in \d+ ms \(elapsed \S+, ETA \S+\)$/;

/**
 * @typedef {{code: number | null, signal: NodeJS.Signals | null, lines: string[]}} CliRun
 * @param {string[]} args
 * @param {{env?: Record<string, string>, onLine?: (line: string, lines: string[], child: import('node:child_process').ChildProcess) => void}} [o]
 * @returns {Promise<CliRun>}
 */
export function streamCli(args, { env = {}, onLine } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, GITHUB_ACTIONS: '', ...env },
  });
  /** @type {string[]} */
  const lines = [];
  createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stderr) }).on('line', (line) => {
    lines.push(line);
    onLine?.(line, lines, child);
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, lines })));
}

/** How many step lines so far. @param {string[]} lines */
export const stepsIn = (lines) => lines.filter((l) => STEP.test(l)).length;

/**
 * What this test's runs own on the engine (labelled with its owner: on an engine shared with other runs,
 * their untagged objects come and go), once removals the engine is still carrying out have finished
 * (after a signal a removal can be "in progress" for a moment after the process is gone): up to 15 s.
 * @param {import('dockerode')} outer
 */
export async function settled(outer) {
  const label = { label: [`${OWNER_LABEL}=${process.env.DIND_BENCH_OWNER}`] };
  const ours = async () => ({
    containers: (await outer.listContainers({ all: true, filters: label })).map((c) => c.Id),
    volumes: ((await outer.listVolumes({ filters: label })).Volumes ?? []).map((v) => v.Name),
    networks: (await outer.listNetworks({ filters: label })).map((n) => n.Id),
  });
  let now = await ours();
  for (let i = 0; i < 30 && Object.values(now).some((l) => l.length); i++) {
    await new Promise((r) => setTimeout(r, 500));
    now = await ours();
  }
  return now;
}

export const NOTHING = { containers: [], volumes: [], networks: [] };
