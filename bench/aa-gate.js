#!/usr/bin/env node
// `npm run bench:aa-gate`: the A/B gate's false regressions, measured on a real A/A (issues 34 and 45). The
// gate (`compare RESULTS --baseline A --candidate B --gate DECISIONS --fail-on regression`,
// src/compare/command.js abCommand) reads the decisions of B against A (src/reading/: each benchmark's
// decision metric, by default the quick profile's benchmarks) and fails when any comes out 'regression'.
// Its documented rate (src/reading/decide.js FALSE_ALARM_RATE, and the line every A/B prints: "Wrong
// decisions are held at 5% over the run's N decisions") is 5%: where nothing changed, a gate over a quick
// run's decisions fails at most 5% of the time. This measures that rate.
//
// The design, and why it is an A/A: the gate judges two environments of ONE run, interleaved round by
// round on the same machine. So the A/A here is a real run of the suite in which the two environments are
// identical copies: every environment asked for (default docker) is planned twice under two keys, `docker-a`
// and `docker-b` (same environment, same engine, same images; bench/eval/aa.js aaPlan), and every step
// runs A then B, in the order a run gives any two environments of an A/B. The run CLI cannot plan one
// environment twice (its keys are the environment names), so this calls the run's own pipeline
// (prepareImages, executePlan, assembleResults) with that plan, writes a real results.json, and runs the
// real gate, abCommand, on it with --fail-on regression: its exit code is the verdict. Comparing the
// docker cells of separate runs would not be the gate's situation: between runs the machine's load
// changes (other helpers run tests here), a drift the gate never sees inside one run. That between-run
// reading is given too, labelled, for contrast.
//
// Each real A/A run is one trial: did the gate fail (any false regression) over all the metrics it
// gates? With a few runs the interval is wide, so the recorded samples are also resampled: for each metric
// the two copies' samples are pooled and split at random into two sets of the same sizes (both halves from
// the same environment and the same rounds), and every such split is read again over all metrics, as the
// gate reads them. Resampled trials are labelled as such: they share the runs' samples, so their interval
// is the resampling's error given these runs, not a run-to-run one; and pooling mixes A and B, so a
// systematic difference between the copies (an order effect) shows only in the real trials.
//
// Usage: npm run bench:aa-gate -- [--runs 3] [--iterations 5] [--bench the quick profile's]
//   [--env docker] [--resamples 100] [--seed 34] [--keep DIR] [--out bench/results/aa-gate.md]
// Needs a running engine with the images built (missing ones are built first, not timed). The load
// average is sampled before, during and after, and the other containers on the engine and the busiest
// processes are recorded: on a shared machine the neighbours are part of the measurement.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { abCommand } from '../src/compare/command.js';
import { outerEngine } from '../src/engine/client.js';
import { FALSE_ALARM_RATE, readAb } from '../src/reading/index.js';
import { EXIT_REGRESSION } from '../src/reading/gate.js';
import { decisionOf } from '../src/model/decisions.js';
import { ENVIRONMENT_NAMES, hasEngineLines } from '../src/environments/index.js';
import { assembleResults } from '../src/run/document.js';
import { prepareImages } from '../src/run/images.js';
import { makePlan } from '../src/run/plan.js';
import { PROFILES } from '../src/run/profiles.js';
import { executePlan } from '../src/run/runner.js';
import { BENCHMARKS } from '../src/benchmarks/index.js';
import { seededRandom } from '../src/stats/index.js';
import { aaPlan, acrossRuns, addUp, falseFindings, resampledRun, sees, sideKey, tally, wilson } from './eval/aa.js';
import { markdownOf } from './eval/aa-report.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    iterations: { type: 'string', default: '5' },
    bench: { type: 'string', default: PROFILES.quick.benchmarks?.join(',') ?? 'lifecycle,sysbench' },
    env: { type: 'string', default: 'docker' },
    engine: { type: 'string', default: '20.10' },
    resamples: { type: 'string', default: '100' },
    seed: { type: 'string', default: '34' },
    keep: { type: 'string' },
    out: { type: 'string', default: new URL('./results/aa-gate.md', import.meta.url).pathname },
  },
});
const RUNS = Number(values.runs);
const ITERATIONS = Number(values.iterations);
const RESAMPLES = Number(values.resamples);
const SEED = Number(values.seed);
const BENCHES = values.bench.split(',');
const ENV = values.env;
for (const [name, n] of Object.entries({ runs: RUNS, iterations: ITERATIONS, resamples: RESAMPLES }))
  if (!Number.isInteger(n) || n < (name === 'resamples' ? 0 : 1)) throw new Error(`--${name} must be a whole number`);
if (ITERATIONS < 5) throw new Error('--iterations must be 5 or more: with fewer no comparison can be tested');
if (!ENVIRONMENT_NAMES.includes(ENV)) throw new Error(`--env: one of ${ENVIRONMENT_NAMES.join(', ')}`);
// An environment with an inner engine is planned once per Engine line (src/run/plan.js): here one line.
const ENGINES = hasEngineLines(ENV) ? [values.engine] : [];
const KEY = hasEngineLines(ENV) ? `${ENV}@${values.engine}` : ENV;
const [A, B] = [sideKey(KEY, 'a'), sideKey(KEY, 'b')];

const outer = outerEngine();
const work = values.keep ? path.resolve(values.keep) : mkdtempSync(path.join(os.tmpdir(), 'dind-bench-aa-'));
mkdirSync(work, { recursive: true });
const log = (/** @type {string} */ s) => process.stderr.write(`${s}\n`);
const o = {
  outer,
  profile: /** @type {const} */ ('quick'),
  benchmarks: BENCHES,
  environments: [ENV],
  distros: ['debian'],
  engines: [values.engine],
  build: true,
  out: work,
  log,
  args: { bench: BENCHES, env: [ENV], distro: ['debian'], iterations: ITERATIONS, aa: true },
};
const images = await prepareImages(o, BENCHMARKS, ENGINES);

const t0 = performance.now();
const machine = {
  before: await machineState(),
  during: /** @type {number[][]} */ ([]),
  after: /** @type {any} */ (null),
};
const sampler = setInterval(() => machine.during.push(os.loadavg()), 30_000);
const runs = [];
try {
  for (let r = 0; r < RUNS; r++) runs.push(await oneRun(r));
} finally {
  clearInterval(sampler);
}
machine.after = await machineState();
const measuredS = (performance.now() - t0) / 1000;

// Resampled trials: every recorded run, split again and again.
const t1 = performance.now();
const random = seededRandom(SEED);
const resampled = runs.map((run) => {
  const [cellsA, cellsB] = [A, B].map((k) =>
    run.results.cells.filter((/** @type {any} */ c) => c.status === 'ok' && c.environmentKey === k),
  );
  return Array.from({ length: RESAMPLES }, () =>
    readAb(/** @type {any} */ (resampledRun(cellsA, cellsB, random)), 'a', 'b'),
  );
});
const resampledTallies = resampled.map((readings) => readings.map(tally));
// Between runs (not the gate's design): copy A of one run against copy A of a later one.
const between = [];
for (let i = 0; i < runs.length; i++)
  for (let j = i + 1; j < runs.length; j++) {
    const ok = (/** @type {any} */ run) =>
      run.results.cells.filter((/** @type {any} */ c) => c.status === 'ok' && c.environmentKey === A);
    between.push({ i, j, tally: tally(readAb(/** @type {any} */ (acrossRuns(ok(runs[i]), ok(runs[j]))), 'a', 'b')) });
  }
const resampleS = (performance.now() - t1) / 1000;

const real = addUp(runs.map((r) => r.tally));
const summary = {
  rate: FALSE_ALARM_RATE,
  real: { ...real, interval: wilson(real.pairsWithRegression, real.pairs) },
  resampled: resampledTallies.map((ts) => addUp(ts)),
  resampledAll: {
    ...addUp(resampledTallies.flat()),
    interval: wilson(addUp(resampledTallies.flat()).pairsWithRegression, resampledTallies.flat().length),
    findings: falseFindings(resampled.flat()),
  },
  between: { ...addUp(between.map((b) => b.tally)), pairs: between },
};
const markdown = markdownOf({
  options: { runs: RUNS, iterations: ITERATIONS, benches: BENCHES, env: ENV, A, B, resamples: RESAMPLES, seed: SEED },
  runs: runs.map(({ results, tally: t, sees: seen, gate, wallS, loadBefore, loadAfter, failed }) => ({
    id: results.run.id,
    sees: seen,
    startedAt: results.run.startedAt,
    tally: t,
    gate,
    wallS,
    loadBefore,
    loadAfter,
    failed,
  })),
  host: runs[0]?.results.host,
  engine: runs[0]?.results.engines.outer,
  machine,
  summary,
  timing: { measuredS, resampleS, totalS: (performance.now() - t0) / 1000 },
  regressions: runs.flatMap((r, i) => r.gate.regressed.map((/** @type {any} */ g) => ({ run: i + 1, ...g }))),
});
mkdirSync(path.dirname(values.out), { recursive: true });
writeFileSync(values.out, markdown);
process.stdout.write(markdown);
if (!values.keep) rmSync(work, { recursive: true, force: true });

/**
 * One real A/A run: the plan with two copies of the environment, executed by the run's own pipeline,
 * written as results.json, then the real gate on it.
 * @param {number} r
 */
async function oneRun(r) {
  const loadBefore = os.loadavg();
  const started = performance.now();
  const startedAt = new Date();
  const plan = aaPlan(
    makePlan({
      benchmarks: BENCHES,
      environments: [ENV],
      distros: ['debian'],
      engines: ENGINES,
      iterations: ITERATIONS,
      warmup: 0,
    }),
  );
  log(
    `A/A run ${r + 1} of ${RUNS}: ${plan.cells.length} cells, ${plan.steps.length} steps (${A} and ${B}, interleaved)`,
  );
  const outDir = path.join(work, `run-${r + 1}`);
  mkdirSync(outDir, { recursive: true });
  const executed = await executePlan({
    outer,
    plan,
    profile: { name: 'quick', stepTimeoutMs: PROFILES.quick.stepTimeoutMs },
    outDir,
    unavailableImages: images.unavailable,
    log,
  });
  if (executed.interrupted || executed.lost)
    throw new Error(`A/A run ${r + 1} stopped: ${executed.lost ?? 'interrupted'}`);
  const results = await assembleResults(o, {
    startedAt,
    iterations: ITERATIONS,
    warmup: 0,
    budgetMs: undefined,
    executed,
    images: [],
    peakRss: { stop: () => process.memoryUsage.rss() },
  });
  const file = path.join(outDir, 'results.json');
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  // The real gate, as a pipeline calls it, over every decision of the run (each benchmark's decision
  // metric), --fail-on regression.
  const {
    exitCode,
    rows: all,
    gate,
  } = await abCommand({
    results: file,
    baseline: A,
    candidate: B,
    gate: BENCHES.flatMap((b) => (decisionOf(b)?.metrics ?? []).map((m) => `${b}/${m}`)).join(','),
    failOn: 'regression',
    json: path.join(outDir, 'gate.json'),
    print: () => {},
  });
  const rows = all.filter((x) => x.decision);
  if ((exitCode === EXIT_REGRESSION) !== rows.some((x) => x.outcome === 'regression'))
    throw new Error(`run ${r + 1}: the gate's exit code ${exitCode} disagrees with its rows`);
  const counted = tally(rows);
  if (counted.gated !== gate.gated)
    throw new Error(`run ${r + 1}: ${counted.gated} metrics counted, the gate judged ${gate.gated}`);
  const failed = results.cells
    .filter((/** @type {any} */ c) => c.status !== 'ok')
    .map((/** @type {any} */ c) => `${c.benchmark}/${c.environmentKey}: ${c.status}`);
  return {
    results,
    tally: counted,
    sees: sees(rows),
    gate: { exitCode, regressed: gate.regressed },
    wallS: (performance.now() - started) / 1000,
    loadBefore,
    loadAfter: os.loadavg(),
    failed,
  };
}

/** What else the machine was doing: load average, other containers on the engine, the busiest processes over 1 s. */
async function machineState() {
  const containers = await outer.listContainers().catch(() => []);
  let busiest = [];
  try {
    // The second of two `top` frames 1 s apart: CPU over that second (the first frame's is since start-up).
    const text = execFileSync('top', ['-b', '-n', '2', '-d', '1', '-w', '200'], { encoding: 'utf8' });
    const frame = text.slice(text.lastIndexOf('top - '));
    busiest = frame
      .split('\n')
      .filter((l) => /^\s*\d+\s/.test(l))
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => Number(f[8]) >= 5 && Number(f[0]) !== process.pid)
      .slice(0, 6)
      .map((f) => ({ cpu: Number(f[8]), command: f.slice(11).join(' ') }));
  } catch {
    // top missing: the load average alone
  }
  return {
    at: new Date().toISOString(),
    load: os.loadavg(),
    containers: containers.length,
    containerImages: [...new Set(containers.map((c) => c.Image))],
    busiest,
  };
}
