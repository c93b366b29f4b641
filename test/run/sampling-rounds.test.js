// The sampling after the planned rounds as the run applies it (src/run/adaptive-rounds.js), through the
// real step loop with benchmarks of the test's own (fixed values, no engine): samples go only to the open
// question, never to a decided one, the cheapest first; at the end every question the run asked records
// its samples a side and why its sampling stopped (results run.questions), and every cell its own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runAdaptiveRounds } from '../../src/run/adaptive-rounds.js';
import { planCells } from '../../src/run/cells.js';
import { makePlan } from '../../src/run/plan.js';
import { Progress } from '../../src/run/progress.js';
import { runPlannedSteps } from '../../src/run/steps.js';

/**
 * A benchmark whose step reports `values(env, i)` for its i-th call in an environment.
 * @param {string} name @param {string} metric @param {(env: string, i: number) => number} values
 * @returns {import('../../src/benchmarks/benchmark.js').Benchmark}
 */
function fixed(name, metric, values) {
  /** @type {Map<string, number>} */
  const calls = new Map();
  return {
    name,
    image: name,
    description: 'test only: fixed values',
    params: { quick: {} },
    estimateSeconds: () => 0.001,
    async measure(env) {
      const key = /** @type {any} */ (env).key;
      const i = calls.get(key) ?? 0;
      calls.set(key, i + 1);
      return [{ metric, unit: 'ops/s', better: 'higher', value: values(key, i) }];
    },
  };
}

/** @param {number} budgetMs */
async function sample(budgetMs) {
  const registry = {
    // CPU the same in both, to 0.1%: decided (equivalent) at the first look.
    sysbench: fixed('sysbench', 'cpu.events_per_second', (_, i) => 1000 + (i % 2)),
    // The service swings 60-140% from sample to sample: open however many samples the cap allows.
    redis: fixed('redis', 'bridge.set.requests_per_second', (env, i) =>
      (i + (env === 'docker' ? 0 : 1)) % 2 ? 60 : 140,
    ),
  };
  const plan = makePlan({
    benchmarks: ['sysbench', 'redis'],
    environments: ['docker', 'dind'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 5,
    warmup: 0,
  });
  const cells = planCells(plan, registry, {});
  /** @type {string[]} */
  const lines = [];
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'sampling-rounds-'));
  /** @type {any} */
  const run = {
    outDir,
    profile: { name: 'quick', stepTimeoutMs: 60_000 },
    log: (/** @type {string} */ s) => lines.push(s),
    benchmarks: registry,
    paramOverrides: {},
    tracker: { closing: false },
    progress: new Progress(plan.steps.map(() => ({ benchmark: 'x', environment: 'y', seconds: 0.001 }))),
    environments: [],
    roundMs: new Map(),
    cellMs: new Map(),
  };
  const envs = new Map(plan.environments.map((e) => [e.key, /** @type {any} */ ({ key: e.key })]));
  const opts = { budgetMs, reserveMs: 0, maxIterations: 12, firstLook: 5, startedAt: performance.now() };
  try {
    await runPlannedSteps(plan.steps, envs, cells, run);
    await runAdaptiveRounds(plan, envs, cells, run, opts, async () => {});
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return { lines, cells, questions: run.questions };
}

test('samples go only to the open question; every question records its samples and why it stopped', async () => {
  const r = await sample(600_000);
  const sampling = r.lines.filter((l) => l.startsWith('sampling: ') && l.includes(', sample '));
  assert.ok(sampling.length > 0);
  assert.ok(
    sampling.every((l) =>
      l.startsWith('sampling: redis bridge.set.requests_per_second, dind@20.10/debian against docker/debian, sample '),
    ),
    sampling.join('\n'),
  );
  assert.deepEqual(r.questions, [
    {
      benchmark: 'sysbench',
      metric: 'cpu.events_per_second',
      baseline: 'docker/debian',
      candidate: 'dind@20.10/debian',
      samples: 5,
      stopped: 'decided',
    },
    {
      benchmark: 'redis',
      metric: 'bridge.set.requests_per_second',
      baseline: 'docker/debian',
      candidate: 'dind@20.10/debian',
      samples: 12,
      stopped: 'iteration cap',
    },
  ]);
  const byKey = Object.fromEntries([...r.cells].map(([k, c]) => [k, c.sampling]));
  assert.deepEqual(byKey, {
    'sysbench/docker/debian': { iterations: 5, stopped: 'decided' },
    'sysbench/dind@20.10/debian': { iterations: 5, stopped: 'decided' },
    'redis/docker/debian': { iterations: 12, stopped: 'iteration cap' },
    'redis/dind@20.10/debian': { iterations: 12, stopped: 'iteration cap' },
  });
});

test('a budget that cannot pay for the next sample: the open question says "budget spent" at the samples it had', async () => {
  const r = await sample(1);
  assert.equal(r.lines.filter((l) => l.startsWith('sampling: redis') && l.includes(', sample ')).length, 0);
  assert.ok(r.lines.some((l) => /^sampling: redis .* is still inconclusive at 5 samples a side/.test(l)));
  assert.deepEqual(
    r.questions?.map((q) => [q.benchmark, q.samples, q.stopped]),
    [
      ['sysbench', 5, 'decided'],
      ['redis', 5, 'budget spent'],
    ],
  );
});
