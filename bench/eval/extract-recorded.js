// Extracts the recorded samples the detection evaluation uses from real `dind-bench run` results into
// recorded-samples.json (committed, with provenance), so the evaluation needs no engine to run.
//   node bench/eval/extract-recorded.js RESULTS.json [RESULTS.json ...] > bench/eval/recorded-samples.json
import { readFileSync } from 'node:fs';

// A few metrics of each kind: CPU, scheduler, memory, disk throughput, and container/daemon latencies.
const METRICS = [
  'cpu.events_per_second',
  'threads.events_per_second',
  'memory.throughput_mib_per_s',
  'fileio.written_mib_per_s',
  'container.create_ms',
  'container.start_ms',
  'daemon.start_to_ready_ms',
];

const runs = process.argv.slice(2).map((file) => {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return {
    runId: r.run.id,
    startedAt: r.run.startedAt,
    command: `dind-bench run ${Object.entries(r.run.args)
      .filter(([k]) => k !== 'out')
      .map(([k, v]) => `--${k} ${Array.isArray(v) ? v.join(',') : v}`)
      .join(' ')}`,
    host: { cpuModel: r.host.cpuModel, cores: r.host.cores, kernel: r.host.kernel, fingerprint: r.host.fingerprint },
    outerEngine: r.engines.outer.version,
    series: r.cells
      .filter((/** @type {any} */ c) => c.status === 'ok')
      .flatMap((/** @type {any} */ c) =>
        c.metrics
          .filter((/** @type {any} */ m) => METRICS.includes(m.metric))
          .map((/** @type {any} */ m) => ({
            benchmark: c.benchmark,
            environmentKey: c.environmentKey,
            distro: c.distro,
            metric: m.metric,
            unit: m.unit,
            better: m.better,
            samples: m.samples,
          })),
      ),
  };
});
process.stdout.write(
  JSON.stringify(
    {
      description:
        'Raw samples recorded with dind-bench on the project machine, for the detection evaluation (bench/eval-detection.js).',
      note: 'Recorded on a shared 2-core machine while other benchmarks ran (load average about 10): within-run noise is far above a quiet runner.',
      runs,
    },
    null,
    1,
  ) + '\n',
);
