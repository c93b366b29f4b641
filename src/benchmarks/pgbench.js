// PostgreSQL under pgbench (TPC-B-like): the server runs in the environment (a fresh cluster from
// initdb, as a CI job's database service starts), the client reaches it across the environment's
// bridge and over host networking. TPS and latency percentiles (from pgbench's per-transaction log).
// Commits are fsynced as in a default server, so the environment's storage shows in the numbers too.
import { LOG_MARKER, parsePgbench } from '../parsers/pgbench.js';
import { networksOf, plannedNetworks, runStep, withService } from './benchmark.js';

/** @typedef {{scale: number, seconds: number, clients: number, threads: number, networks: number, readyTimeoutMs: number}} PgbenchParams */

/** @type {import('./benchmark.js').Benchmark<PgbenchParams>} */
export const pgbench = {
  name: 'pgbench',
  image: 'pgbench',
  description: 'PostgreSQL in the environment, pgbench over bridge and host networking: TPS, latency p50/p95/p99',
  params: {
    // networks: how many of the environment's networks (src/benchmarks/benchmark.js networksOf); quick
    // measures the bridge only, so that 5 iterations of every benchmark fit its 15 minutes.
    quick: { scale: 1, seconds: 1, clients: 4, threads: 2, networks: 1, readyTimeoutMs: 60_000 },
    standard: { scale: 10, seconds: 60, clients: 8, threads: 2, networks: 2, readyTimeoutMs: 120_000 },
  },
  // Per network: initdb and start (~2 s), `pgbench -i` (~0.5 s per scale unit here), then the timed run.
  estimateSeconds: (p) => plannedNetworks(p.networks) * (p.seconds + 2 + 0.5 * p.scale),
  // One quick-profile step, measured per environment (src/run/estimate.js says where from).
  quickStepS: { native: 3.9, docker: 2.7, dind: 3.08, 'dind-vfs': 9.38 },

  async measure(env, ctx) {
    const p = ctx.params;
    /** @type {import('./benchmark.js').Metric[]} */
    const metrics = [];
    for (const network of networksOf(env, p.networks)) {
      const spec = {
        name: 'postgres',
        image: ctx.image,
        network,
        user: 'postgres', // initdb and postgres refuse to run as root
        // Debian keeps the server binaries out of PATH (the glob stays literal, harmlessly, elsewhere).
        // The cluster lives in $TMPDIR: the container's own /tmp, or the native service's scratch folder.
        cmd: (/** @type {{bind: string, ports: number[]}} */ { bind, ports }) => [
          'sh',
          '-c',
          'export PATH="$(echo /usr/lib/postgresql/*/bin):$PATH"; D="$(mktemp -d)" && ' +
            'initdb -D "$D" -A trust -U postgres --no-sync >"$D.initdb.log" 2>&1 || { cat "$D.initdb.log"; exit 1; }; ' +
            // Clients come from the run's own bridge network too; trust them as initdb trusts loopback.
            'echo "host all all all trust" >>"$D/pg_hba.conf"; ' +
            // jit=off: the image has no LLVM (see images/docker-bake.hcl), and TPC-B's cheap queries would
            // never reach the JIT's cost threshold anyway; the same setting everywhere, native included.
            `exec postgres -D "$D" -k "$D" -c listen_addresses=${bind} -p ${ports[0]} -c jit=off`,
        ],
        readiness: (/** @type {{ports: number[]}} */ { ports }) => [
          'pg_isready',
          '-q',
          '-h',
          '127.0.0.1',
          '-p',
          String(ports[0]),
        ],
        readyTimeoutMs: p.readyTimeoutMs,
      };
      await withService(env, spec, async (server) => {
        const conn = `-h ${server.host} -p ${server.port} -U postgres`;
        const { stdout, stderr } = await runStep(
          env,
          ctx,
          `${network}-pgbench`,
          [
            'sh',
            '-c',
            `pgbench -i -q -s ${p.scale} ${conn} postgres >init.log 2>&1 || { cat init.log; exit 1; }; rm -f init.log; ` +
              `pgbench -T ${p.seconds} -c ${p.clients} -j ${p.threads} ${conn} -l --log-prefix=pgl postgres 2>&1; s=$?; ` +
              `echo '${LOG_MARKER}'; cat pgl.* 2>/dev/null; rm -f pgl.*; exit $s`,
          ],
          { network },
        );
        const r = parsePgbench(stdout + stderr);
        metrics.push({ metric: `${network}.tps`, unit: 'tx/s', better: 'higher', value: r.tps });
        for (const [k, v] of /** @type {const} */ ([
          ['avg', r.latency_avg_ms],
          ['p50', r.p50_ms],
          ['p95', r.p95_ms],
          ['p99', r.p99_ms],
        ])) {
          metrics.push({ metric: `${network}.latency_${k}`, unit: 'ms', better: 'lower', value: v });
        }
        if (r.failed > 0)
          metrics.push({ metric: `${network}.failed_transactions`, unit: 'count', better: 'lower', value: r.failed });
      });
    }
    return metrics;
  },
};
