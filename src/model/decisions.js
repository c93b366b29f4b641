// The questions a run asks: per benchmark, the one number a job pays (its decision metric) and the resource
// family it answers for. A reading judges these metrics, for the pairs the run asks (each DinD-like
// environment against Docker, each later Engine line against the oldest, an A/B, and what a gate names),
// as one family under one false-alarm control; every other metric is described with its interval, never
// given an outcome and never counted in an answer (docs/method.md, "Decisions").
// Why one metric per benchmark: every metric judged together is one family, and the more it holds the less
// each can decide (about 260 in a quick run decided 6%). A CI engineer asks what the job pays: the start-up,
// the CPU work per second, the memory it holds, the disk and network throughput it gets, the service it
// talks to, the build it waits on. The benchmark modules are checked against this table when they are
// loaded (src/benchmarks/index.js), and every run checks that each cell emitted its decision metric.
// Import-free (no Node APIs): part of the results model, loaded by the site too.

/** @typedef {'start-up' | 'CPU' | 'memory' | 'disk' | 'network' | 'service' | 'build' | 'job'} Resource */

/**
 * @type {Readonly<Record<string, { metrics: readonly string[], resource: Resource }>>}
 */
export const DECISIONS = Object.freeze({
  lifecycle: { metrics: ['startup.without_image_ms'], resource: 'start-up' },
  sysbench: { metrics: ['cpu.events_per_second'], resource: 'CPU' },
  'stress-ng': { metrics: ['cpu.bogo_ops_per_s'], resource: 'CPU' },
  memory: { metrics: ['job_cost.peak_mib'], resource: 'memory' },
  iozone: { metrics: ['write_mib_per_s'], resource: 'disk' },
  fio: { metrics: ['layer.randwrite.iops'], resource: 'disk' },
  storage: { metrics: ['copy_up.layer_ms'], resource: 'disk' },
  iperf3: { metrics: ['bridge.throughput'], resource: 'network' },
  redis: { metrics: ['bridge.set.requests_per_second'], resource: 'service' },
  pgbench: { metrics: ['bridge.tps'], resource: 'service' },
  build: { metrics: ['cold_ms'], resource: 'build' },
  'image-load': { metrics: ['load_ms'], resource: 'build' },
  // Facts, not timings: nothing to decide (the mode table reads them).
  isolation: { metrics: [], resource: 'start-up' },
});

/** A workload (`workload.NAME`): the team's whole job. */
export const WORKLOAD_DECISION = Object.freeze({
  metrics: ['job.total_ms'],
  resource: /** @type {Resource} */ ('job'),
});

/** The resource families in the order an answer lists them. */
export const RESOURCES = /** @type {readonly Resource[]} */ (
  Object.freeze(['start-up', 'job', 'CPU', 'memory', 'disk', 'network', 'service', 'build'])
);

/**
 * A benchmark's decision metrics and resource; null for a benchmark this version does not know (a results
 * file from a newer one): its metrics are then only described.
 * @param {string} benchmark
 */
export function decisionOf(benchmark) {
  if (benchmark.startsWith('workload.')) return WORKLOAD_DECISION;
  return Object.hasOwn(DECISIONS, benchmark) ? DECISIONS[benchmark] : null;
}

/** @param {string} benchmark @param {string} metric */
export const isDecisionMetric = (benchmark, metric) => Boolean(decisionOf(benchmark)?.metrics.includes(metric));

/**
 * When a run looks at its decisions (samples a side): the first look after the planned rounds, then each
 * time the sample count has grown by about 40%, up to the cap. A decision is made only at a look, and the
 * reading spends its false-alarm rate over the looks the design allows (looksUpTo), so looking again
 * cannot buy false decisions (docs/method.md, "Sampling until decided").
 */
export const LOOKS = Object.freeze([5, 7, 10, 14, 20, 28, 40]);

/**
 * The looks a design with `first` planned samples and a cap of `cap` allows: the first, each of LOOKS
 * between, and the cap.
 * @param {number} first @param {number} cap
 * @returns {number[]}
 */
export function looksUpTo(first, cap) {
  const points = new Set([first, ...LOOKS.filter((n) => n > first && n < cap)]);
  if (cap > first) points.add(cap);
  return [...points].sort((a, b) => a - b);
}
