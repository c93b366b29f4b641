// Apache Otava as a peer in the multi-run evaluation: the real package (PyPI `apache-otava`, pinned below),
// installed into a throwaway virtual env under the OS temp folder for the evaluation only, and run by
// bench/eval/otava_worker.py on the same run medians the other peers see. When Python, the env or the
// install is unavailable, or the worker fails, the evaluation says so and leaves Otava out; it never fails
// because of it.
//
// Otava's defaults (`otava analyze`): --p-value 0.001, --window 50, --magnitude 0
// (https://otava.apache.org/docs/, "otava analyze --help"); the sweep varies --p-value.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const OTAVA_VERSION = '0.8.0';
export const OTAVA_DEFAULT_P = 0.001;
/**
 * The --p-value sweep: the CLI default, stricter and looser values, dense near the default so that the
 * one setting for every model (sequence-report.js) does not jump past it (first-pass p-values are 10x these,
 * capped).
 */
export const OTAVA_PVALUES = [
  1e-5, 3e-5, 1e-4, 2e-4, 3e-4, 5e-4, 7e-4, 0.001, 0.002, 0.003, 0.005, 0.01, 0.03, 0.1, 0.2,
];

const WORKER = fileURLToPath(new URL('./otava_worker.py', import.meta.url));
const VENV = join(tmpdir(), `dind-bench-eval-otava-${OTAVA_VERSION}`);

/**
 * The Python of a virtual env with apache-otava installed, creating it on first use.
 * @returns {{ python: string } | { error: string }}
 */
export function otavaPython() {
  const python = join(VENV, 'bin', 'python');
  const ready = () =>
    spawnSync(python, ['-c', 'import otava.analysis, importlib.metadata as m; print(m.version("apache-otava"))'], {
      encoding: 'utf8',
    });
  if (existsSync(python) && ready().status === 0) return { python };
  const system = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!system) return { error: 'no python3 on PATH' };
  const venv = spawnSync(system, ['-m', 'venv', VENV], { encoding: 'utf8' });
  if (venv.status !== 0) return { error: `python3 -m venv ${VENV} failed: ${(venv.stderr || '').trim().slice(-300)}` };
  const pip = spawnSync(python, ['-m', 'pip', 'install', '--quiet', `apache-otava==${OTAVA_VERSION}`], {
    encoding: 'utf8',
  });
  if (pip.status !== 0)
    return { error: `pip install apache-otava==${OTAVA_VERSION} failed: ${(pip.stderr || '').trim().slice(-300)}` };
  const check = ready();
  if (check.status !== 0) return { error: `apache-otava installed but not importable: ${check.stderr.trim()}` };
  return { python };
}

/**
 * Starts the worker on these medians; resolves to alarms[sequence][pvalue][j] or an error. The sequences are
 * split over one worker process per core (Python takes about 35 ms a sequence for the whole sweep, so
 * every trial of every model is many minutes on one core), each in its own process, so the caller can
 * compute the other rules meanwhile (input and output go through files, so a busy event loop does not
 * stall them).
 * @param {string} python
 * @param {Array<{ values: number[], first: number, sign: 1 | -1 }>} sequences
 * @param {number[]} pvalues
 * @returns {Promise<{ alarms: boolean[][][] } | { error: string }>}
 */
export async function runOtava(python, sequences, pvalues) {
  const parts = Math.max(1, Math.min(availableParallelism(), 8, sequences.length));
  const size = Math.ceil(sequences.length / parts);
  const chunks = Array.from({ length: parts }, (_, i) => sequences.slice(i * size, (i + 1) * size));
  const outs = await Promise.all(chunks.map((chunk) => runWorker(python, chunk, pvalues)));
  const failed = outs.find((o) => 'error' in o);
  if (failed) return failed;
  return { alarms: outs.flatMap((o) => ('alarms' in o ? o.alarms : [])) };
}

/**
 * One worker process on some of the sequences.
 * @param {string} python
 * @param {Array<{ values: number[], first: number, sign: 1 | -1 }>} sequences
 * @param {number[]} pvalues
 * @returns {Promise<{ alarms: boolean[][][] } | { error: string }>}
 */
function runWorker(python, sequences, pvalues) {
  const dir = mkdtempSync(join(tmpdir(), 'dind-bench-eval-otava-job-'));
  const input = join(dir, 'in.json');
  const output = join(dir, 'out.json');
  writeFileSync(input, JSON.stringify({ pvalues, window: 50, magnitude: 0, sequences }));
  return new Promise((resolve) => {
    const child = spawn(python, [WORKER, input, output], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    child.on('error', (e) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ error: e.message });
    });
    child.on('close', (code) => {
      try {
        if (code !== 0) return resolve({ error: `otava worker exited ${code}: ${stderr.trim().slice(-300)}` });
        const raw = JSON.parse(readFileSync(output, 'utf8'));
        resolve({ alarms: raw.map((/** @type {number[][]} */ perP) => perP.map((a) => a.map((x) => x === 1))) });
      } catch (e) {
        resolve({ error: `otava worker output unreadable: ${/** @type {Error} */ (e).message}` });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
