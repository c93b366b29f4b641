// The re-plan as the run applies it (src/run/steps.js with src/run/replan.js), through the real step loop
// with a benchmark of the test's own (it waits, then reports: no engine): on a machine slower than the
// plan, default cells that no longer fit are left out after a cell's first iteration, named in the log
// and recorded (results run.replans; each cell unavailable, "left out for the budget", keeping the sample it
// took); named cells and the start-up a job pays stay; the re-made plan's time is said once. On a machine
// faster than the plan nothing goes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { decisionOf } from '../../src/model/decisions.js';
import { planCells } from '../../src/run/cells.js';
import { makePlan } from '../../src/run/plan.js';
import { Progress } from '../../src/run/progress.js';
import { runPlannedSteps } from '../../src/run/steps.js';

/**
 * A benchmark that takes `ms` a step. @param {string} name @param {number} ms
 * @returns {import('../../src/benchmarks/benchmark.js').Benchmark}
 */
const waiting = (name, ms) => ({
  name,
  image: 'lifecycle',
  description: 'test only: waits, then reports',
  params: { quick: {} },
  estimateSeconds: () => ms / 1000,
  async measure() {
    await delay(ms);
    // The decision metrics a step of this benchmark must give (src/run/steps.js requireDecisions).
    const metrics = decisionOf(name)?.metrics ?? ['wait_ms'];
    return metrics.map((metric) => ({ metric, unit: 'ms', better: 'lower', value: ms + Math.random() }));
  },
});

/**
 * Runs the plan's steps of `lifecycle` and `disk` in docker, dind and dind-vfs with a budget of `budgetS`,
 * each step estimated at `estimateS` and taking `stepMs`.
 * @param {{ stepMs: number, estimateS: number, budgetS: number, named?: string[] }} o
 */
async function run({ stepMs, estimateS, budgetS, named = [] }) {
  const registry = { lifecycle: waiting('lifecycle', stepMs), disk: waiting('disk', stepMs) };
  const plan = makePlan({
    benchmarks: ['lifecycle', 'disk'],
    environments: ['docker', 'dind', 'dind-vfs'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 3,
    warmup: 0,
  });
  const cells = planCells(plan, registry, {});
  const estimates = plan.steps.map(() => estimateS);
  const planned = [...cells].map(([key, c]) => ({
    key,
    ...c,
    baseline: c.environmentKey === 'docker',
    named: named.includes(key),
    stepsS: estimateS * 3,
  }));
  /** @type {string[]} */
  const lines = [];
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'replan-steps-'));
  /** @type {import('../../src/run/adaptive-rounds.js').Replanning} */
  const replan = { cells: planned, estimates, record: [] };
  /** @type {any} */
  const ctx = {
    outDir,
    profile: { name: 'quick', stepTimeoutMs: 60_000 },
    log: (/** @type {string} */ s) => lines.push(s),
    benchmarks: registry,
    paramOverrides: {},
    tracker: { closing: false },
    progress: new Progress(
      plan.steps.map((s, i) => ({
        benchmark: s.cell.split('/')[0],
        environment: s.cell.split('/')[1],
        seconds: estimates[i],
      })),
    ),
    environments: [],
    roundMs: new Map(),
    cellMs: new Map(),
    budget: {
      budgetMs: budgetS * 1000,
      reserveMs: 0,
      startedAt: performance.now(),
      maxIterations: 12,
      firstLook: 3,
      replan,
    },
  };
  const envs = new Map(plan.environments.map((e) => [e.key, /** @type {any} */ ({})]));
  try {
    await runPlannedSteps(plan.steps, envs, cells, ctx);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return { lines, cells, replan, budget: ctx.budget };
}

test('a machine slower than the plan: default cells that no longer fit are left out after a first iteration, named and recorded', async () => {
  // Planned at 10 ms a step (0.18 s in all, within a 1 s budget), each takes 150 ms (2.7 s in all): by the
  // end of the start-up's first round its own rounds left (6 x 150 ms) are over what is left, so every
  // default cell has gone by then, and the run says it goes over.
  const r = await run({ stepMs: 150, estimateS: 0.01, budgetS: 1 });
  const log = r.lines.join('\n');
  const said = r.lines.filter((l) => l.startsWith('re-plan: after '));
  assert.ok(said.length >= 1, log);
  const dropped = r.replan.record.flatMap((x) => x.dropped);
  assert.ok(dropped.length > 0, log);
  for (const rec of r.replan.record) {
    assert.ok(rec.remainingS >= rec.leftS, JSON.stringify(rec)); // to a tenth of a second
    assert.match(rec.why, /the profile added it by default/);
    assert.ok(
      said.some((l) => l.includes(`after ${rec.after}'s first iteration`) && rec.dropped.every((k) => l.includes(k))),
      `named in the log: ${rec.dropped.join(', ')}`,
    );
  }
  for (const [key, c] of r.cells) {
    if (!dropped.includes(key)) continue;
    assert.notEqual(c.benchmark, 'lifecycle', `${key}: the start-up a job pays is never left out`);
    assert.equal(c.status, 'unavailable');
    assert.equal(c.sampling?.stopped, 'left out for the budget');
    assert.equal(c.sampling?.iterations, c.metrics[0]?.samples.length ?? 0, 'it keeps the sample it took');
    assert.match(c.reason ?? '', /^left out after .*'s first iteration: /);
  }
  for (const [key, c] of r.cells)
    if (key.startsWith('lifecycle/')) assert.equal(c.metrics[0].samples.length, 3, `${key} keeps its rounds`);
  // The start-up alone is over the budget too: said once, no adaptive rounds.
  assert.equal(r.lines.filter((l) => /this machine is slower than the plan's estimates/.test(l)).length, 1, log);
  assert.equal(r.budget.over, true);
  assert.equal(r.lines.filter((l) => l.startsWith("re-plan: from each cell's first iteration")).length, 1, log);
});

test('named cells stay however slow the machine', async () => {
  const named = ['disk/docker/debian', 'disk/dind@20.10/debian', 'disk/dind-vfs@20.10/debian'];
  const r = await run({ stepMs: 100, estimateS: 0.01, budgetS: 0.5, named });
  assert.deepEqual(r.replan.record, []);
  for (const c of r.cells.values()) assert.equal(c.metrics[0].samples.length, 3);
  assert.equal(r.budget.over, true);
});

test('a machine faster than the plan keeps every cell, and says the re-made plan’s time once', async () => {
  // Planned at 1 s a step (18 s, within 60 s), each takes 5 ms.
  const r = await run({ stepMs: 5, estimateS: 1, budgetS: 60 });
  assert.deepEqual(r.replan.record, []);
  for (const c of r.cells.values()) assert.equal(c.status, 'pending');
  const said = r.lines.filter((l) => l.startsWith("re-plan: from each cell's first iteration"));
  assert.equal(said.length, 1, r.lines.join('\n'));
  assert.ok((r.replan.remadeS ?? Infinity) < 18, `re-made: ${r.replan.remadeS} s`);
  assert.equal(r.budget.over, undefined);
});

test('a probe too bold: the cells not measured yet are planned at the scale the first ones ran at, and go before their own first step', async () => {
  // Planned at 20 ms a step (18 steps, 0.36 s, within 0.8 s), each takes 60 ms (1.08 s). After the start-up's
  // first cell ran at 3x its estimate, the disk cells, not measured yet, are planned at 3x too: some no
  // longer fit and go then, before any of their steps ran (at the estimates alone they would have stayed
  // until their own first iteration).
  const r = await run({ stepMs: 60, estimateS: 0.02, budgetS: 0.8 });
  const log = r.lines.join('\n');
  const first = r.replan.record[0];
  assert.ok(first, log);
  assert.match(first.after, /^lifecycle\//, log);
  const early = first.dropped.filter((k) => k.startsWith('disk/'));
  assert.ok(early.length > 0, log);
  for (const k of early) assert.equal(r.cells.get(k)?.sampling?.iterations, 0, `${k} took no step`);
  assert.match(log, /the cells not measured yet at 3\.00x their estimates, as the cells measured so far ran/);
});
