// sysbench cpu, threads, memory and fileio: the study's CPU, scheduler, memory and disk baselines.
// fileio runs on the container's own filesystem (the layer the environment's storage driver provides),
// which is where DinD's nested storage shows.
import { parseSysbench } from '../parsers/sysbench.js';
import { runSteps } from './benchmark.js';

/**
 * @typedef {{seconds: number, threads: number, fileTotalSize: string, tests?: string}} SysbenchParams
 *   tests: which of cpu, threads, memory, fileio to run, comma-separated (default all four)
 */

/** The tests in the order they run. */
const TESTS = /** @type {const} */ (['cpu', 'threads', 'memory', 'fileio']);

/**
 * The tests a step runs. @param {SysbenchParams} p
 * @returns {Array<typeof TESTS[number]>}
 */
export function testsOf(p) {
  const asked = String(p.tests ?? TESTS.join(','))
    .split(',')
    .map((t) => t.trim());
  const unknown = asked.filter((t) => !(/** @type {readonly string[]} */ (TESTS).includes(t)));
  if (unknown.length || !asked.length)
    throw new Error(`sysbench tests ${JSON.stringify(p.tests)}: a comma-separated list of ${TESTS.join(', ')}`);
  return TESTS.filter((t) => asked.includes(t));
}

/** @type {import('./benchmark.js').Benchmark<SysbenchParams>} */
export const sysbench = {
  name: 'sysbench',
  image: 'sysbench',
  description: 'sysbench cpu, threads, memory and fileio: events/s, throughput and latency percentiles',
  params: {
    // quick: the CPU test only, its decision (cpu.events_per_second), for 2 s: the other three were 3 of
    // a quick step's 4.5 s and only described; 2 s averages a neighbour's bursts better than 1 s.
    quick: { seconds: 2, threads: 2, fileTotalSize: '16M', tests: 'cpu' },
    // tiny (act, CI's pipeline runs): all four tests at 1 s, so a tiny run still writes fileio's files in
    // the environment's own layer (the fault tests fill that disk under it) and reports every family.
    tiny: { seconds: 1, threads: 2, fileTotalSize: '16M' },
    standard: { seconds: 10, threads: 2, fileTotalSize: '1G' },
  },

  // Its tests (four in standard) of `seconds` each, plus preparing and removing the fileio files (~1 GB/s here: they fit in
  // the page cache). Measured in standard with `npm run bench:standard-time`: 44 s per step.
  estimateSeconds: (p) =>
    testsOf(p).length * p.seconds +
    1 +
    (testsOf(p).includes('fileio')
      ? (2 * parseFloat(p.fileTotalSize) * (/G/i.test(p.fileTotalSize) ? 1024 : 1)) / 1000
      : 0),
  // One quick-profile step, measured per environment (src/run/estimate.js says where from): docker and
  // dind by `bench:noise` (docs/noise.md, sysbench-quick); native and dind-vfs from the four-test step,
  // less the 2.1 s the other tests took.
  quickStepS: { native: 2.0, docker: 2.38, dind: 2.39, 'dind-vfs': 6.1 },

  async measure(env, ctx) {
    const p = ctx.params;
    const common = [`--time=${p.seconds}`, '--histogram=on', '--percentile=99'];
    const all = /** @type {const} */ ({
      cpu: `sysbench cpu ${common.join(' ')} run`,
      threads: `sysbench threads --threads=${p.threads} ${common.join(' ')} run`,
      memory: `sysbench memory ${common.join(' ')} run`,
      // prepare, run and cleanup together: the files live and die in the container's own layer.
      fileio:
        `sysbench fileio --file-total-size=${p.fileTotalSize} prepare >/dev/null && ` +
        `sysbench fileio --file-total-size=${p.fileTotalSize} --file-test-mode=rndrw ${common.join(' ')} run; ` +
        `s=$?; sysbench fileio --file-total-size=${p.fileTotalSize} cleanup >/dev/null; exit $s`,
    });
    const run = testsOf(p);
    // The tests one after another in one container (see runSteps): a container costs more than
    // a 1-second test in DinD, and each test's output and exit code are still kept apart.
    const out = await runSteps(
      env,
      ctx,
      run.map((step) => ({ step, sh: all[step] })),
    );
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const test of run) {
      for (const m of parseSysbench(out[test], test)) metrics.push({ ...m, metric: `${test}.${m.metric}` });
    }
    return metrics;
  },
};
