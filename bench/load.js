// A steady neighbour beside a bench script's runs, as on a shared runner: `stress-ng` started here and
// stopped by its PID. `cpu` keeps one core busy; `mixed` adds one disk writer (256 MiB under the temp
// folder, rewritten), the load issue 53 names for a run that must still keep to the time it announces.
import { spawn } from 'node:child_process';
import os from 'node:os';

/** @typedef {'cpu' | 'mixed'} LoadKind */
export const LOAD_KINDS = /** @type {const} */ (['cpu', 'mixed']);

/** @param {LoadKind} kind */
export const describeLoad = (kind) =>
  kind === 'cpu' ? '`stress-ng --cpu 1` beside it' : '`stress-ng --cpu 1 --hdd 1 --hdd-bytes 256m` beside it';

/**
 * Checks a `--load` option's value. @param {string | undefined} value @param {string} script
 * @returns {LoadKind | null}
 */
export function loadKind(value, script) {
  if (value === undefined) return null;
  if (!(/** @type {readonly string[]} */ (LOAD_KINDS).includes(value)))
    throw new Error(`${script}: --load ${value}: one of ${LOAD_KINDS.join(', ')}`);
  return /** @type {LoadKind} */ (value);
}

/** @param {LoadKind} kind @param {string} script */
export function startLoad(kind, script) {
  const args = [
    '--cpu',
    '1',
    ...(kind === 'mixed' ? ['--hdd', '1', '--hdd-bytes', '256m', '--temp-path', os.tmpdir()] : []),
  ];
  const child = spawn('stress-ng', [...args, '--quiet'], { stdio: 'ignore' });
  child.on('error', (e) => console.error(`${script}: stress-ng did not start: ${e.message}`));
  return child;
}

/** @param {import('node:child_process').ChildProcess} child */
export function stopLoad(child) {
  if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
}
