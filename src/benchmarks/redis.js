// Redis under redis-benchmark: redis-server runs in the environment, the client reaches it across the
// environment's bridge and over host networking. Requests/s and latency percentiles for SET and GET:
// the shape of a CI job's service container (a cache or queue next to the tests).
import { parseRedisBenchmarkRuns } from '../parsers/redis-benchmark.js';
import { networksOf, plannedNetworks, runStep, withService } from './benchmark.js';

/**
 * @typedef {{requests: number, clients: number, tests: string, pipeline: number, repeats: number, networks: number,
 *   readyTimeoutMs: number}} RedisParams
 *   pipeline: redis-benchmark's `-P` (requests a client sends before it waits for their replies; 1: one at a time);
 *   repeats: how many redis-benchmark runs one sample takes, in one container; per test, the run of median
 *   requests/s is the sample (a run a neighbour stalled does not move it)
 */

/** @type {import('./benchmark.js').Benchmark<RedisParams>} */
export const redis = {
  name: 'redis',
  image: 'redis',
  description:
    'redis-server in the environment, redis-benchmark over bridge and host networking: requests/s, latency p50/p95/p99',
  params: {
    // networks: how many of the environment's networks (networksOf in ./benchmark.js); quick: the bridge.
    // quick: 60 000 requests a test (was 20 000: about 0.5 s of SETs, whose per-sample spread was 10-25%).
    quick: {
      requests: 60000,
      clients: 20,
      tests: 'set,get',
      pipeline: 1,
      repeats: 1,
      networks: 1,
      readyTimeoutMs: 30_000,
    },
    standard: {
      requests: 500000,
      clients: 50,
      tests: 'set,get',
      pipeline: 1,
      repeats: 1,
      networks: 2,
      readyTimeoutMs: 60_000,
    },
  },
  // Two networks x each test's requests at ~120 000 requests/s with 50 clients (measured here in
  // standard: 18.9 s per step), plus the server starts.
  estimateSeconds: (p) =>
    (plannedNetworks(p.networks) * String(p.tests).split(',').length * p.requests * (p.repeats ?? 1)) / 120_000 + 2,
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  // Since issue 53 (60 000 requests): the whole quick run's figures times what bench:noise measured the change
  // to cost per step, before and after back to back (x1.46 docker, x1.6 dind, docs/noise.md).
  quickStepS: { native: 0.79, docker: 1.72, dind: 1.89, 'dind-vfs': 6.27 },

  async measure(env, ctx) {
    const p = ctx.params;
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const network of networksOf(env, p.networks)) {
      const spec = {
        name: 'redis-server',
        image: ctx.image,
        network,
        // No persistence: the benchmark measures the network path and the server, not snapshots.
        cmd: (/** @type {{bind: string, ports: number[]}} */ { bind, ports }) => [
          'redis-server',
          '--bind',
          bind,
          '--port',
          String(ports[0]),
          '--save',
          '',
          '--appendonly',
          'no',
          '--protected-mode',
          'no',
        ],
        readiness: (/** @type {{ports: number[]}} */ { ports }) => [
          'sh',
          '-c',
          `redis-cli -h 127.0.0.1 -p ${ports[0]} ping | grep -q PONG`,
        ],
        readyTimeoutMs: p.readyTimeoutMs,
      };
      await withService(env, spec, async (server) => {
        const { stdout } = await runStep(env, ctx, `${network}-redis-benchmark`, benchmarkCmd(p, server), {
          network,
        });
        for (const row of medianRuns(parseRedisBenchmarkRuns(stdout))) {
          const t = row.test.toLowerCase();
          metrics.push({
            metric: `${network}.${t}.requests_per_second`,
            unit: 'req/s',
            better: 'higher',
            value: row.rps,
          });
          for (const [k, v] of /** @type {const} */ ([
            ['p50', row.p50_ms],
            ['p95', row.p95_ms],
            ['p99', row.p99_ms],
          ])) {
            metrics.push({ metric: `${network}.${t}.latency_${k}`, unit: 'ms', better: 'lower', value: v });
          }
        }
      });
    }
    return metrics;
  },
};

/**
 * The client's command: one redis-benchmark run, or `repeats` of them one after another in one container (a
 * shell loop; the arguments reach it as positional parameters, never as shell text). Counts are checked here.
 * @param {RedisParams} p @param {{host: string, port: number}} server
 * @returns {string[]}
 */
export function benchmarkCmd(p, server) {
  const count = (/** @type {string} */ name, /** @type {unknown} */ v, /** @type {number} */ max) => {
    if (!(Number.isInteger(v) && /** @type {number} */ (v) >= 1 && /** @type {number} */ (v) <= max))
      throw new Error(`redis ${name} ${JSON.stringify(v)}: a whole number from 1 to ${max}`);
    return String(v);
  };
  const repeats = Number(count('repeats', p.repeats ?? 1, 9));
  const args = ['-h', server.host, '-p', String(server.port), '-n', count('requests', p.requests, 1e8)];
  args.push('-c', count('clients', p.clients, 10_000), '-P', count('pipeline', p.pipeline ?? 1, 1000));
  args.push('-t', p.tests, '--csv');
  if (repeats === 1) return ['redis-benchmark', ...args];
  const loop = `for i in $(seq ${repeats}); do redis-benchmark "$@" || exit $?; done`;
  return ['sh', '-c', loop, 'redis-benchmark', ...args];
}

/**
 * Per test, the row of the run whose requests/s is the median of the runs (an odd count: that run's own row,
 * so its latencies and its rate belong together; an even count: the lower middle one).
 * @param {ReturnType<typeof parseRedisBenchmarkRuns>} runs
 */
export function medianRuns(runs) {
  return runs[0].map((first) => {
    const same = runs.map((rows) => rows.find((r) => r.test === first.test) ?? first);
    const sorted = [...same].sort((a, b) => a.rps - b.rps);
    return sorted[Math.floor((sorted.length - 1) / 2)];
  });
}
