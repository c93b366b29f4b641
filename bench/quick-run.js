#!/usr/bin/env node
// Checks the quick profile's targets on this machine, by measuring them:
//   - `dind-bench run --profile quick` with its own cells (src/run/profiles.js) finishes within its budget
//     (images cached); the time spent per benchmark is printed too, from the run's own progress lines, so the
//     budget can be planned;
//   - at least 80% of its decisions are decided (regression, improvement, equivalent), each printed with
//     its samples and why its sampling stopped; every metric has at least 5 samples a side;
//   - the harness's own resident memory stays under 200 MB during the run.
//   - what the budget left out (src/run/budget.js) is named, and every comparison kept has its samples.
// Usage: npm run bench:quick-run [-- --bench lifecycle,sysbench --target 300 --cores 1]
//   (needs a running engine; builds missing images first, not timed). The load average before and after
//   is printed: on a shared machine the wall time measures the neighbours too.
//   --cores N: a slower runner, made of this one: the engine (dockerd, containerd, and so every container
//   they start) and the harness are pinned to N cores for the run (taskset), and set back after. Checked,
//   not assumed: a container's `nproc` must say N, or the bench stops.
//   --load cpu|mixed: a steady neighbour beside the run (./load.js: one core busy; or one core and one
//   disk writer), stopped by its PID: whether the plan still keeps to the time it announces.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { PROFILES } from '../src/run/profiles.js';
import { readWithinRun } from '../src/reading/index.js';
import { runWithProgress } from './run-progress.js';
import { throttleEngine } from './throttle.js';
import { describeLoad, loadKind, startLoad, stopLoad } from './load.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = new URL('../bin/dind-bench.js', import.meta.url).pathname;
/** The quick profile's own benchmarks: what `run --profile quick` measures unless told. */
const QUICK = PROFILES.quick.benchmarks ?? [];
const { values } = parseArgs({
  options: {
    bench: { type: 'string', default: QUICK.join(',') },
    target: { type: 'string', default: String(Math.round((PROFILES.quick.budgetMs ?? 450_000) / 1000)) },
    cores: { type: 'string' },
    load: { type: 'string' },
  },
});
const neighbour = loadKind(values.load, 'bench:quick-run');
const throttle = values.cores ? await throttleEngine(Number(values.cores)) : null;
const BENCHES = values.bench.split(',');
const TARGET_SECONDS = Number(values.target);
const MIN_SAMPLES = 5;
const TARGET_RSS_MB = 200;

const pre = spawnSync(
  process.execPath,
  [BIN, 'images', 'build', '--distro', 'debian', '--engine', '20.10,26.1', '--bench', values.bench],
  { stdio: 'inherit' },
);
if (pre.status !== 0) process.exit(pre.status ?? 1);

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-quick-'));
const stress = neighbour ? startLoad(neighbour, 'bench:quick-run') : null;
try {
  const loadBefore = os.loadavg();
  // The profile's own selection (native, docker, dind, dind-vfs x debian) is left to the profile: named on
  // the command line, no cell could be left out for the budget (src/run/budget.js).
  const everyBench = values.bench === QUICK.join(',');
  const { status, wall, lines, steps } = await runWithProgress(
    ['run', '--profile', 'quick', ...(everyBench ? [] : ['--bench', values.bench]), '--out', dir],
    throttle?.harness,
  );
  const loadAfter = os.loadavg();
  /** @type {Map<string, number>} */
  const perBench = new Map();
  /** @type {Map<string, Map<string, number>>} */
  const perCell = new Map();
  for (const { bench, envKey, ms } of steps) {
    perBench.set(bench, (perBench.get(bench) ?? 0) + ms);
    if (!perCell.has(bench)) perCell.set(bench, new Map());
    const row = /** @type {Map<string, number>} */ (perCell.get(bench));
    row.set(envKey, (row.get(envKey) ?? 0) + ms);
  }
  const firstStep = lines.find((l) => /^\[1\//.test(l.line))?.at ?? 0;
  const teardownAt = lines.find((l) => l.line.startsWith('tearing down'))?.at ?? wall;
  const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  const rssMb = results.harness.peakRssBytes / 2 ** 20;
  const budgetS = (results.run.budgetMs ?? 0) / 1000;
  const failed = results.cells.filter((/** @type {any} */ c) => c.status === 'failed');
  // The catalogue's promise: every benchmark gives metrics in docker and dind, each with its unit, its
  // direction and one raw sample per iteration.
  const missing = [];
  const leftOut = results.cells.filter((/** @type {any} */ c) => c.sampling?.stopped === 'left out for the budget');
  const isLeftOut = (/** @type {any} */ c) => leftOut.includes(c);
  for (const bench of BENCHES) {
    for (const env of ['docker', 'dind@20.10']) {
      if (!results.cells.some((/** @type {any} */ c) => c.benchmark === bench && c.environmentKey === env)) continue;
      const cell = results.cells.find((/** @type {any} */ c) => c.benchmark === bench && c.environmentKey === env);
      if (cell && isLeftOut(cell)) continue;
      const good =
        cell?.status === 'ok' &&
        cell.metrics.length > 0 &&
        cell.metrics.every(
          (/** @type {any} */ m) =>
            m.unit && ['higher', 'lower'].includes(m.better) && m.samples.length >= results.run.iterations,
        );
      if (!good) missing.push(`${bench}/${env}`);
    }
  }
  // Testable everywhere: every metric of every cell that ran has at least 5 samples.
  const few = results.cells
    .filter(
      (/** @type {any} */ c) =>
        c.status === 'ok' && c.metrics.some((/** @type {any} */ m) => m.samples.length < MIN_SAMPLES),
    )
    .map(
      (/** @type {any} */ c) =>
        `${c.benchmark}/${c.environmentKey} (${Math.min(...c.metrics.map((/** @type {any} */ m) => m.samples.length))})`,
    );
  const report = readFileSync(path.join(dir, 'report.md'), 'utf8');
  const named =
    leftOut.length === 0 ||
    (/^\*\*Measured less than planned: /m.test(report) &&
      /left out (at plan time to keep the run within|after \S+'s first iteration)/.test(report));
  const rows = [
    [
      'metrics, docker + dind',
      missing.length ? `missing: ${missing.join(', ')}` : `every benchmark kept`,
      'every benchmark the budget kept',
      missing.length === 0,
    ],
    [
      'left out (budget)',
      leftOut.length
        ? `${leftOut.length}: ${leftOut.map((/** @type {any} */ c) => `${c.benchmark}/${c.environmentKey}`).join(', ')}`
        : 'none',
      'named in the report',
      named,
    ],
    [
      'samples a side',
      few.length ? `under ${MIN_SAMPLES} in ${few.join(', ')}` : `>= ${MIN_SAMPLES} everywhere`,
      `>= ${MIN_SAMPLES} for every metric`,
      few.length === 0,
    ],
    ['quick run wall time', `${wall.toFixed(1)} s`, `<= ${TARGET_SECONDS} s`, wall <= TARGET_SECONDS],
    // The time the run announced: its budget (it plans within it, calibrated, and re-plans to hold it).
    [
      'run against its budget',
      `${wall.toFixed(1)} s of ${budgetS} s`,
      '<= budget + 15%',
      !budgetS || wall <= budgetS * 1.15,
    ],
    ['harness peak RSS', `${rssMb.toFixed(0)} MiB`, `< ${TARGET_RSS_MB} MB`, rssMb * 1.048576 < TARGET_RSS_MB],
    // Unavailable cells (native has no engine for memory, build, image-load) are by design, not failures.
    [
      'cells failed',
      `${failed.length}/${results.cells.length}${failed.length ? ` (${failed.map((/** @type {any} */ c) => `${c.benchmark}/${c.environmentKey}`).join(', ')})` : ''}`,
      'none',
      failed.length === 0,
    ],
  ];
  // What the run decided: its decisions (each benchmark's decision metric for the pairs it asks), by outcome.
  const decisions = readWithinRun(results).filter((c) => c.decision);
  const decided = decisions.filter((c) => c.outcome !== 'inconclusive');
  rows.push([
    'decisions decided',
    `${decided.length} of ${decisions.length}`,
    '>= 80%',
    decisions.length > 0 && decided.length >= 0.8 * decisions.length,
  ]);
  console.log(
    `host: ${results.host.cpuModel}, ${results.host.cores} cores; outer engine ${results.engines.outer.version}`,
  );
  for (const c of decisions)
    console.log(
      `  decision: ${c.benchmark} ${c.metric}, ${c.candidate.env} against ${c.baseline.env}: ${c.outcome} (${c.candidate.n} vs ${c.baseline.n} samples${c.stopped ? `, stopped: ${c.stopped}` : ''})`,
    );
  const load = (/** @type {number[]} */ l) => l.map((x) => x.toFixed(1)).join(' ');
  console.log(
    `load average (1, 5, 15 min) before ${load(loadBefore)}, after ${load(loadAfter)} (a shared machine: the wall time measures the neighbours too)`,
  );
  // What the plan knew of the machine (src/run/calibrate.js) and how it was re-made (src/run/replan.js).
  const cal = results.run.calibration;
  if (cal) console.log(`calibration: probe ${cal.probeMs} ms against ${cal.referenceMs} ms: estimates x${cal.factor}`);
  if (results.run.replannedS !== undefined)
    console.log(`re-made plan: the planned rounds to end at ${results.run.replannedS} s of the run`);
  for (const r of results.run.replans ?? [])
    console.log(
      `re-plan after ${r.after}: ${r.remainingS} s needed, ${r.leftS} s left: left out ${r.dropped.join(', ')}`,
    );
  for (const q of results.run.questions ?? [])
    console.log(
      `  question: ${q.benchmark} ${q.metric}, ${q.candidate} against ${q.baseline}: ${q.samples} a side, ${q.stopped}`,
    );
  /** @type {Map<string, string>} */
  const sampling = new Map();
  for (const c of results.cells.filter((/** @type {any} */ x) => x.sampling))
    sampling.set(c.benchmark, `${c.sampling.iterations} (${c.sampling.stopped})`);
  if (sampling.size)
    console.log(
      `measured iterations per benchmark, and why sampling stopped: ${[...sampling].map(([b, t]) => `${b} ${t}`).join(', ')}`,
    );
  for (const [what, measured, target, ok] of rows)
    console.log(`${ok ? 'ok  ' : 'MISS'}  ${String(what).padEnd(22)} ${String(measured).padEnd(10)} target ${target}`);
  console.log('time in measured steps per benchmark (all environments, warm-up included; setup excluded):');
  for (const [bench, ms] of [...perBench].sort((a, b) => b[1] - a[1]))
    console.log(`  ${bench.padEnd(12)} ${(ms / 1000).toFixed(1)} s`);
  console.log(
    `setup (environments started, images loaded) ${firstStep.toFixed(0)} s, teardown ${(wall - teardownAt).toFixed(0)} s`,
  );
  const envs = [...new Set([...perCell.values()].flatMap((r) => [...r.keys()]))];
  console.log(
    `seconds per benchmark and environment:\n  ${'benchmark'.padEnd(12)} ${envs.map((e) => e.padStart(12)).join(' ')}`,
  );
  for (const [bench, row] of perCell)
    console.log(
      `  ${bench.padEnd(12)} ${envs.map((e) => ((row.get(e) ?? 0) / 1000).toFixed(1).padStart(12)).join(' ')}`,
    );
  if (neighbour) console.log(`neighbour: ${describeLoad(neighbour)}`);
  if (throttle) console.log(`throttled: the engine and the harness on ${throttle.cores} core(s) (${throttle.cpus})`);
  // 6: cells the profile added were left out for the budget, named in the report (a row above checks it).
  process.exitCode = (status === 0 || status === 6) && rows.every((x) => x[3]) ? 0 : 1;
} finally {
  if (stress) stopLoad(stress);
  throttle?.restore();
  rmSync(dir, { recursive: true, force: true });
}
