// `npm run bench:startup`: how long the command takes to start, against bare node. Target: `dind-bench
// --help` within 2x of `node -e 0`. Also the whole-process time of `compare` on the fixture run and of
// `publish` into a fresh history, next to the time their modules take to load (import only), so the
// start-up share of each command is visible.
//   node bench/cli-startup.js [--repeat N]
// Reports the median and the fastest of N runs of each, and the load average: on a shared machine the
// medians measure the neighbours too.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { repeat: { type: 'string', default: '10' } } });
const REPEAT = Number(values.repeat);
const ROOT = new URL('..', import.meta.url).pathname;
const BIN = path.join(ROOT, 'bin/dind-bench.js');
const FIXTURE = path.join(ROOT, 'test/fixtures/results/quick-debian.json');
const work = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-startup-'));

/** @param {string[]} args @param {() => void} [before] run before each timed start (not timed) */
function time(args, before) {
  const ms = [];
  for (let i = 0; i < REPEAT; i++) {
    before?.();
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: ROOT });
    ms.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0] };
}

const importOnly = (/** @type {string} */ mod) => [
  '--input-type=module',
  '-e',
  `await import(${JSON.stringify(path.join(ROOT, mod))})`,
];
const hist = path.join(work, 'history');
const cases = [
  ['node -e 0 (bare node)', ['-e', '0']],
  ['dind-bench --help', [BIN, '--help']],
  ['dind-bench compare --help', [BIN, 'compare', '--help']],
  ['dind-bench compare <fixture> (whole command)', [BIN, 'compare', FIXTURE]],
  ['  its modules, import only (src/compare/command.js)', importOnly('src/compare/command.js')],
  [
    'dind-bench publish <fixture> (new history, whole command)',
    [BIN, 'publish', FIXTURE, '--history', hist],
    () => rmSync(hist, { recursive: true, force: true }),
  ],
  ['  its modules, import only (src/history/append.js)', importOnly('src/history/append.js')],
];
const load = os.loadavg()[0];
const rows = [];
try {
  for (const [name, args, before] of /** @type {Array<[string, string[], (() => void) | undefined]>} */ (cases))
    rows.push([name, time(args, before)]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
const bare = /** @type {any} */ (rows[0][1]);
const help = /** @type {any} */ (rows[1][1]);
console.log(
  `start-up, ${REPEAT} runs each, median (fastest); ${os.cpus().length} cores, load average ${load.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
);
for (const [name, r] of rows)
  console.log(
    `${String(name).padEnd(60)} ${Math.round(/** @type {any} */ (r).median)} ms (${Math.round(/** @type {any} */ (r).min)} ms)`,
  );
const ratio = help.median / bare.median;
console.log(
  `--help / bare node: ${ratio.toFixed(2)}x median, ${(help.min / bare.min).toFixed(2)}x fastest (target 2x)`,
);
process.exitCode = ratio <= 2 ? 0 : 1;
