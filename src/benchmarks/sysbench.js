// sysbench cpu, threads, memory and fileio: the study's CPU, scheduler, memory and disk baselines.
// fileio runs on the container's own filesystem (the layer the environment's storage driver provides),
// which is where DinD's nested storage shows.
import { parseSysbench } from '../parsers/sysbench.js';
import { runStep } from './benchmark.js';

/** @typedef {{seconds: number, threads: number, fileTotalSize: string}} SysbenchParams */

/** @type {import('./benchmark.js').Benchmark} */
export const sysbench = {
  name: 'sysbench',
  image: 'sysbench',
  description: 'sysbench cpu, threads, memory and fileio: events/s, throughput and latency percentiles',
  params: {
    quick: { seconds: 1, threads: 2, fileTotalSize: '16M' },
    standard: { seconds: 10, threads: 2, fileTotalSize: '1G' },
  },

  // Four tests of `seconds` each, plus preparing and removing the fileio files (~100 MiB/s here).
  estimateSeconds: (/** @type {any} */ p) => 4 * p.seconds + 1 + (2 * parseFloat(p.fileTotalSize) * (/G/i.test(p.fileTotalSize) ? 1024 : 1)) / 100,

  async measure(env, ctx) {
    const p = /** @type {SysbenchParams} */ (ctx.params);
    const common = [`--time=${p.seconds}`, '--histogram=on', '--percentile=99'];
    const tests = /** @type {const} */ ({
      cpu: ['sysbench', 'cpu', ...common, 'run'],
      threads: ['sysbench', 'threads', `--threads=${p.threads}`, ...common, 'run'],
      memory: ['sysbench', 'memory', ...common, 'run'],
      // prepare, run and cleanup in one command: the files live and die in the container's own layer.
      fileio: [
        'sh',
        '-c',
        `sysbench fileio --file-total-size=${p.fileTotalSize} prepare >/dev/null && ` +
          `sysbench fileio --file-total-size=${p.fileTotalSize} --file-test-mode=rndrw ${common.join(' ')} run; ` +
          `s=$?; sysbench fileio --file-total-size=${p.fileTotalSize} cleanup >/dev/null; exit $s`,
      ],
    });
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const [test, cmd] of Object.entries(tests)) {
      const { stdout } = await runStep(env, ctx, test, [...cmd]);
      for (const m of parseSysbench(stdout, /** @type {keyof typeof tests} */ (test))) {
        metrics.push({ ...m, metric: `${test}.${m.metric}` });
      }
    }
    return metrics;
  },
};
