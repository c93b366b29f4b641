// Shared by the bench commands that time a real `dind-bench run`: starts it, echoes its progress to
// stderr, and gives back every progress line with its arrival time and each step's own duration.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const BIN = new URL('../bin/dind-bench.js', import.meta.url).pathname;
// Progress lines look like "[12/96] fio/dind@20.10/debian #2: 20 metrics in 15234 ms (elapsed 3m10s, ETA 12m05s)";
// rounds after the plan print "[sampling]" ("[adaptive]" in older versions) in place of the step count.
const STEP_LINE =
  /^\[(?:\d+\/\d+|adaptive|sampling)\] ([^/\s]+)\/([^/\s]+)\/\S+ .*? in (\d+) ms(?: \(elapsed [^)]*\))?$/;

/**
 * Runs `dind-bench <args>`. Streamed, not spawnSync: each line's arrival time splits the wall time into
 * setup (environments started, images loaded), steps, and teardown.
 * @param {string[]} args @param {string[]} [prefix] a command the run is started under (`taskset -c 0`)
 * @param {string} [bin] the suite's CLI (another checkout's, for a before/after)
 * @returns {Promise<{status: number | null, wall: number, lines: {at: number, line: string}[], steps: {bench: string, envKey: string, ms: number}[]}>}
 *   wall and `at` in seconds since the start; steps: the runs that gave metrics (failed ones carry no time)
 */
export async function runWithProgress(args, prefix = /** @type {string[]} */ ([]), bin = BIN) {
  const t0 = performance.now();
  // prefix: a command the run is started under (`taskset -c 0`), for a throttled runner
  const argv = [...prefix, process.execPath, bin, ...args];
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  /** @type {{at: number, line: string}[]} */
  const lines = [];
  createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stderr) }).on('line', (line) => {
    lines.push({ at: (performance.now() - t0) / 1000, line });
    process.stderr.write(line + '\n');
  });
  /** @type {number | null} */
  const status = await new Promise((resolve) => child.on('close', resolve));
  const steps = lines.flatMap(({ line }) => {
    const m = line.match(STEP_LINE);
    return m ? [{ bench: m[1], envKey: m[2], ms: Number(m[3]) }] : [];
  });
  return { status, wall: (performance.now() - t0) / 1000, lines, steps };
}
