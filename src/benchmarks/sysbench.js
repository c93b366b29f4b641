// sysbench cpu, threads, memory and fileio: the study's CPU, scheduler, memory and disk baselines.
// fileio runs on the container's own filesystem (the layer the environment's storage driver provides),
// which is where DinD's nested storage shows.
import { parseSysbench } from '../parsers/sysbench.js';
import { runSteps } from './benchmark.js';

/** @typedef {{seconds: number, threads: number, fileTotalSize: string}} SysbenchParams */

/** @type {import('./benchmark.js').Benchmark<SysbenchParams>} */
export const sysbench = {
  name: 'sysbench',
  image: 'sysbench',
  description: 'sysbench cpu, threads, memory and fileio: events/s, throughput and latency percentiles',
  params: {
    quick: { seconds: 1, threads: 2, fileTotalSize: '16M' },
    standard: { seconds: 10, threads: 2, fileTotalSize: '1G' },
  },

  // Four tests of `seconds` each, plus preparing and removing the fileio files (~1 GB/s here: they fit in
  // the page cache). Measured in standard with `npm run bench:standard-time`: 44 s per step.
  estimateSeconds: (p) =>
    4 * p.seconds + 1 + (2 * parseFloat(p.fileTotalSize) * (/G/i.test(p.fileTotalSize) ? 1024 : 1)) / 1000,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 4.12, docker: 4.38, dind: 4.36, 'dind-vfs': 8.24 },

  async measure(env, ctx) {
    const p = ctx.params;
    const common = [`--time=${p.seconds}`, '--histogram=on', '--percentile=99'];
    const tests = /** @type {const} */ ({
      cpu: `sysbench cpu ${common.join(' ')} run`,
      threads: `sysbench threads --threads=${p.threads} ${common.join(' ')} run`,
      memory: `sysbench memory ${common.join(' ')} run`,
      // prepare, run and cleanup together: the files live and die in the container's own layer.
      fileio:
        `sysbench fileio --file-total-size=${p.fileTotalSize} prepare >/dev/null && ` +
        `sysbench fileio --file-total-size=${p.fileTotalSize} --file-test-mode=rndrw ${common.join(' ')} run; ` +
        `s=$?; sysbench fileio --file-total-size=${p.fileTotalSize} cleanup >/dev/null; exit $s`,
    });
    // The four tests one after another in one container (see runSteps): a container costs more than
    // a 1-second test in DinD, and each test's output and exit code are still kept apart.
    const out = await runSteps(
      env,
      ctx,
      Object.entries(tests).map(([step, sh]) => ({ step, sh })),
    );
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const test of /** @type {(keyof typeof tests)[]} */ (Object.keys(tests))) {
      for (const m of parseSysbench(out[test], test)) metrics.push({ ...m, metric: `${test}.${m.metric}` });
    }
    return metrics;
  },
};
