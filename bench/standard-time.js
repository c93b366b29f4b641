#!/usr/bin/env node
// How long `--profile standard` takes per benchmark, measured, next to what `dind-bench plan` estimates:
// runs the standard parameters with one warm-up and one iteration per cell, times every step from the
// run's own progress lines, and scales to the profile's 20 iterations + 1 warm-up.
// Usage: npm run bench:standard-time -- [--bench a,b] [--env docker,dind]   (needs a running engine)
// Defaults: every benchmark, docker and dind. The whole standard profile takes hours (stress-ng alone is
// 4 x 100 s per step), so pick benchmarks; the figures go in docs/planning.md's table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCHMARK_NAMES } from '../src/benchmarks/index.js';
import { makePlan } from '../src/run/plan.js';
import { estimateRun } from '../src/run/estimate.js';
import { PROFILES } from '../src/run/profiles.js';
import { runWithProgress } from './run-progress.js';

const { values } = parseArgs({
  options: {
    bench: { type: 'string', default: BENCHMARK_NAMES.join(',') },
    env: { type: 'string', default: 'docker,dind' },
  },
});
const benchmarks = String(values.bench).split(',');
const environments = String(values.env).split(',');
const unknown = benchmarks.filter((b) => !BENCHMARK_NAMES.includes(b));
if (unknown.length) {
  console.error(`standard-time: unknown benchmark(s) ${unknown.join(', ')}; valid: ${BENCHMARK_NAMES.join(', ')}`);
  process.exit(2);
}

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-standard-'));
try {
  const run = await runWithProgress([
    'run',
    '--profile',
    'standard',
    '--iterations',
    '1',
    '--distro',
    'debian',
    '--bench',
    benchmarks.join(','),
    '--env',
    environments.join(','),
    '--out',
    dir,
  ]);
  /** @type {Map<string, number[]>} step times in ms per benchmark and environment */
  const steps = new Map();
  for (const { bench, envKey, ms } of run.steps) {
    const key = `${bench} ${envKey.split('@')[0]}`;
    steps.set(key, [...(steps.get(key) ?? []), ms]);
  }

  const profile = PROFILES.standard;
  const perStep = profile.iterations + profile.warmup;
  const estimate = estimateRun({
    plan: makePlan({
      benchmarks,
      environments,
      distros: ['debian'],
      engines: ['20.10'],
      iterations: profile.iterations,
      warmup: profile.warmup,
    }),
    profile: 'standard',
  });
  console.log(
    `\nstandard profile (${profile.iterations} iterations + ${profile.warmup} warm-up), Debian: measured seconds per step (mean of warm-up and one iteration) and the whole profile scaled from it, per environment; plan's estimate for all of them`,
  );
  console.log(
    `  ${'benchmark'.padEnd(12)} ${environments.map((e) => `${e} s/step`.padStart(16)).join(' ')} ${'measured total'.padStart(15)} ${'plan estimate'.padStart(14)}`,
  );
  for (const bench of benchmarks) {
    const means = environments.map((e) => {
      const t = steps.get(`${bench} ${e}`);
      return t && t.length ? t.reduce((a, b) => a + b, 0) / t.length / 1000 : null;
    });
    let total = 0;
    for (const m of means) total += (m ?? 0) * perStep;
    const est = estimate.benchmarks.find((r) => r.benchmark === bench)?.totalS ?? 0;
    const fmt = (/** @type {number} */ s) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${(s / 60).toFixed(1)} min`);
    console.log(
      `  ${bench.padEnd(12)} ${means.map((m) => (m === null ? 'failed' : m.toFixed(1)).padStart(16)).join(' ')} ${fmt(total).padStart(15)} ${fmt(est).padStart(14)}`,
    );
  }
  process.exitCode = run.status === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
