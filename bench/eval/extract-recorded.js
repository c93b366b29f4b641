// Extracts the recorded samples the detection evaluation uses from real `dind-bench run` results into
// recorded-samples.json (committed, with provenance), so the evaluation needs no engine to run.
//   node bench/eval/extract-recorded.js --set NAME --note TEXT [--into FILE [--append]] RESULTS.json [...] > FILE.new
//   (then `npx prettier --write FILE.new`, as the committed file is formatted)
// A set is runs recorded under the same conditions (one machine, one load): each series of a set is one noise
// model, its runs' medians giving the between-run spread. --into keeps the sets already in FILE (a set of
// the same name is replaced, or with --append keeps its runs and gains these: more runs of a set measure its
// between-run spread better).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

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

const { values, positionals } = parseArgs({
  options: {
    set: { type: 'string' },
    note: { type: 'string' },
    into: { type: 'string' },
    append: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
if (
  !values.set ||
  !/^[a-z0-9][a-z0-9 -]{0,40}$/.test(values.set) ||
  !values.note ||
  positionals.length === 0 ||
  (values.append && !values.into)
) {
  process.stderr.write(
    'usage: node bench/eval/extract-recorded.js --set NAME --note TEXT [--into FILE [--append]] RESULTS.json [...]\n' +
      '  NAME: lower-case letters, digits, spaces and dashes (e.g. "quiet"); TEXT: the conditions (machine, load)\n',
  );
  process.exit(2);
}

/** An option's value as it was given: a list joined by commas, an object (parameter overrides) as JSON. @param {unknown} v */
const argText = (v) =>
  Array.isArray(v) ? v.join(',') : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);

const runs = positionals.map((file) => {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return {
    set: values.set,
    runId: r.run.id,
    startedAt: r.run.startedAt,
    command: `dind-bench run ${Object.entries(r.run.args)
      .filter(([k]) => k !== 'out')
      .map(([k, v]) => `--${k} ${argText(v)}`)
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
const before = values.into ? JSON.parse(readFileSync(values.into, 'utf8')) : { sets: {}, runs: [] };
process.stdout.write(
  JSON.stringify(
    {
      description:
        'Raw samples recorded with dind-bench, for the detection evaluation (bench/eval-detection.js), in sets of runs recorded under the same conditions.',
      sets: { ...before.sets, [values.set]: values.note },
      runs: [...before.runs.filter((/** @type {any} */ r) => values.append || r.set !== values.set), ...runs],
    },
    null,
    1,
  ) + '\n',
);
