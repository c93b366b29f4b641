#!/usr/bin/env node
// `npm run bench:noise`: each decision metric's own noise on this machine (issue 53), measured through the
// real run path: one `dind-bench run --profile quick --bench B --env docker,dind --iterations N` per
// benchmark (the quick profile's parameters, interleaved rounds as every run takes them), its results.json
// read as an A/A per environment (odd rounds against even rounds of the same environment, ./noise-table.js).
// Per row: the per-sample CV, the A/A interval at the quick run's own decision level, the samples a side
// that would decide ±5% and ±10% at that level, the seconds one sample costs (the run's own step times),
// and the load average before and after (a shared machine: the neighbours are in every figure).
// Usage: npm run bench:noise -- [--bench iozone,iperf3] [--env docker,dind] [--samples 8] [--load cpu]
//          [--cores 1] [--variant before=a.json --variant after=b.json] [--metric NAME] [--name quiet]
//   --load cpu|mixed: `stress-ng --cpu 1` (and one disk writer) beside the runs (./load.js: a busy
//     neighbour, as on a shared runner), stopped by PID.
//   --cores N: the engine and the harness pinned to N cores (./throttle.js, as bench:quick-run does).
//   --variant NAME=FILE: parameter overrides (`run --config FILE`) measured as a variant; with several,
//     each benchmark's variants run one after another, so a before and an after share the same window.
//   --metric NAME: a row for that metric too, from the same samples (a candidate decision metric beside the
//     decision's own, e.g. bridge.throughput_interval_median); repeatable; a benchmark without it has no such row.
//   --name: the section of docs/noise.md the table goes to, and bench/results/noise-NAME.json.
// Needs a running engine with the benchmark images built (`dind-bench images build`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DECISIONS } from '../src/model/decisions.js';
import { PROFILES } from '../src/run/profiles.js';
import { aaOf, noiseTable, quickDecisionLevel, replaceSection } from './noise-table.js';
import { describeLoad, loadKind, startLoad, stopLoad } from './load.js';
import { runWithProgress } from './run-progress.js';
import { throttleEngine } from './throttle.js';

const ROOT = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    bench: { type: 'string', default: (PROFILES.quick.benchmarks ?? []).join(',') },
    env: { type: 'string', default: 'docker,dind' },
    samples: { type: 'string', default: '8' },
    load: { type: 'string' },
    cores: { type: 'string' },
    variant: { type: 'string', multiple: true },
    metric: { type: 'string', multiple: true },
    name: { type: 'string' },
  },
});
const samples = Number(values.samples);
if (!(Number.isInteger(samples) && samples >= 4 && samples <= 100))
  throw new Error(`--samples ${values.samples}: a whole number from 4 to 100 (an A/A splits them in two)`);
const neighbour = loadKind(values.load, 'bench:noise');
const benches = values.bench.split(',').map((b) => b.trim());
for (const b of benches)
  if (!DECISIONS[b]?.metrics.length) throw new Error(`--bench ${b}: not a benchmark with a decision metric`);
const variants = (values.variant ?? ['current=']).map((v) => {
  const m = v.match(/^([\w.-]+)=(.*)$/);
  if (!m) throw new Error(`--variant ${v}: NAME=FILE (a parameter config, as \`run --config\` reads it)`);
  return { name: m[1], config: m[2] ? path.resolve(m[2]) : null };
});
const extraMetrics = values.metric ?? [];
for (const m of extraMetrics)
  if (!/^[\w.-]{1,100}$/.test(m))
    throw new Error(`--metric ${m}: a metric name (letters, digits, dot, dash, underscore)`);
const name = values.name ?? (values.load ? 'loaded' : 'quiet');
if (!/^[\w.-]+$/.test(name)) throw new Error(`--name ${name}: letters, digits, dot, dash, underscore`);

const level = quickDecisionLevel();
const throttle = values.cores ? await throttleEngine(Number(values.cores)) : null;
const stress = neighbour ? startLoad(neighbour, 'bench:noise') : null;
/** @type {import('./noise-table.js').NoiseRow[]} */
const rows = [];
/** @type {any} */
let host = null;
const startedAt = new Date().toISOString();
try {
  for (const bench of benches)
    for (const variant of variants) {
      // Of several variants, those whose config does not name this benchmark would only repeat the defaults:
      // such a benchmark runs once, with its defaults, as "unchanged".
      if (
        variants.length > 1 &&
        !names(variant, bench) &&
        (variant !== variants[0] || variants.some((v) => names(v, bench)))
      )
        continue;
      const unchanged = variants.length > 1 && !variants.some((v) => names(v, bench));
      const r = await measure(bench, unchanged ? { name: 'unchanged', config: null } : variant);
      host ??= r.host;
      rows.push(...r.rows);
      // Written after every run: a long measurement stopped halfway keeps what it measured.
      write();
    }
} finally {
  if (stress) stopLoad(stress);
  throttle?.restore();
}
console.log(noiseTable(rows));
console.log(`written: docs/noise.md (section ${name}), bench/results/noise-${name}.json`);

/**
 * One run of one benchmark in the A/A's environments, and its rows.
 * @param {string} bench @param {{name: string, config: string | null}} variant
 */
async function measure(bench, variant) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-noise-'));
  try {
    const loadBefore = os.loadavg();
    // --engine: the default line only (the quick profile would add the next line's lifecycle).
    const args = ['run', '--profile', 'quick', '--bench', bench, '--env', values.env, '--engine', '20.10'];
    args.push('--iterations', String(samples), '--out', dir, ...(variant.config ? ['--config', variant.config] : []));
    const run = await runWithProgress(args, throttle?.harness);
    const loadAfter = os.loadavg();
    const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    const decision = DECISIONS[bench].metrics[0];
    const rowsOf = results.cells
      .filter((/** @type {any} */ c) => c.benchmark === bench && c.status === 'ok')
      .flatMap((/** @type {any} */ c) =>
        [decision, ...extraMetrics].map((metric) => ({
          c,
          metric,
          m: c.metrics.find((/** @type {any} */ x) => x.metric === metric),
        })),
      )
      .filter((/** @type {any} */ { m, metric }) => m || metric === decision)
      .map((/** @type {any} */ { c, metric, m }) => {
        if (!m) throw new Error(`${bench}/${c.environmentKey}: no ${metric} in results`);
        const steps = run.steps.filter((s) => s.bench === bench && s.envKey === c.environmentKey);
        const mean =
          m.samples.reduce((/** @type {number} */ s, /** @type {number} */ x) => s + x, 0) / m.samples.length;
        return {
          variant: variant.name,
          benchmark: bench,
          metric,
          environment: c.environmentKey,
          better: m.better,
          ...aaOf(m.samples, m.better, level.level),
          mean,
          unit: m.unit,
          samples: m.samples,
          secondsPerSample: steps.length ? steps.reduce((s, x) => s + x.ms, 0) / steps.length / 1000 : null,
          loadBefore,
          loadAfter,
          params: variant.config ? (JSON.parse(readFileSync(variant.config, 'utf8'))[bench] ?? null) : null,
        };
      });
    const failed = results.cells.filter((/** @type {any} */ c) => c.status === 'failed');
    for (const c of failed) console.error(`bench:noise: ${bench}/${c.environmentKey} failed: ${c.reason}`);
    if (run.status !== 0 && !rowsOf.length) throw new Error(`dind-bench run exited ${run.status} for ${bench}`);
    return { host: results.host, rows: rowsOf };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether a variant's config sets parameters of `bench`. @param {{config: string | null}} v @param {string} bench */
function names(v, bench) {
  return v.config !== null && bench in JSON.parse(readFileSync(v.config, 'utf8'));
}

function write() {
  const machine = host
    ? `${host.cpuModel}, ${host.cores} cores, ${Math.round(host.memoryBytes / 2 ** 30)} GiB, kernel ${host.kernel}`
    : os.cpus()[0]?.model;
  const doc = {
    name,
    startedAt,
    endedAt: new Date().toISOString(),
    machine,
    samples,
    environments: values.env,
    load: values.load ?? null,
    cores: values.cores ?? null,
    decisionLevel: level,
    rows,
  };
  const json = path.join(ROOT, 'bench/results', `noise-${name}.json`);
  writeFileSync(json, `${JSON.stringify(doc, null, 2)}\n`);
  const md = path.join(ROOT, 'docs/noise.md');
  let text = '';
  try {
    text = readFileSync(md, 'utf8');
  } catch {
    text = '# Noise of each decision metric (`npm run bench:noise`)\n';
  }
  const body = [
    `**${name}**: ${startedAt.slice(0, 16).replace('T', ' ')} UTC, ${machine}; ${samples} samples per environment, ` +
      `environments ${values.env}; ${neighbour ? describeLoad(neighbour) : 'nothing started beside it'}` +
      `${values.cores ? `; engine and harness on ${values.cores} core(s)` : ''}. Decision level of the quick run: ` +
      `${(level.level * 100).toFixed(2)}% two-sided (${level.decisions} decisions × ${level.looks} looks). ` +
      `Load average: 1, 5, 15 minutes. Data: bench/results/noise-${name}.json.`,
    '',
    noiseTable(rows),
  ].join('\n');
  writeFileSync(md, replaceSection(text, name, body));
}
