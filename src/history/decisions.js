// The decision metrics of a benchmark: the one or two numbers a job pays (the start-up for lifecycle,
// events per second for sysbench cpu, a workload's job time). Against history they are the family the
// verdict's false-alarm rate is stated for (docs/method.md); every other metric is described with its
// verdict, outside that family. Read through this one function so that where the lists live can change
// without touching the callers: a benchmark's own `decisions` list (src/benchmarks/<name>.js) when it has
// one, else the few this module knows.

/** The decision metrics known here, for benchmarks whose definition names none. */
const KNOWN = Object.freeze({
  lifecycle: ['startup.without_image_ms'],
  sysbench: ['cpu.events_per_second'],
  workload: ['job.total_ms'],
});

/**
 * @param {string} benchmark
 * @param {Readonly<Record<string, { decisions?: readonly string[] }>>} [definitions] the benchmark registry
 * @returns {readonly string[]} empty when neither the definition nor this module names any
 */
export function decisionMetrics(benchmark, definitions = {}) {
  const own = Object.hasOwn(definitions, benchmark) ? definitions[benchmark].decisions : undefined;
  if (Array.isArray(own)) return own;
  return Object.hasOwn(KNOWN, benchmark) ? KNOWN[/** @type {keyof typeof KNOWN} */ (benchmark)] : [];
}

/**
 * Whether a series is one of the family's: its metric is a decision metric of its benchmark.
 * @param {string} benchmark @param {string} metric
 * @param {Readonly<Record<string, { decisions?: readonly string[] }>>} [definitions]
 */
export const isDecision = (benchmark, metric, definitions) => decisionMetrics(benchmark, definitions).includes(metric);
