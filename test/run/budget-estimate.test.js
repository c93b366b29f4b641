// The budget (src/run/budget.js) and the plan's estimate (src/run/estimate.js) count the same seconds for
// the same plan: each environment with an engine of its own (its descriptor's: every DinD variant, sysbox,
// and podman, which has no Engine line) starts once and loads its images, in both; the runner's engine
// (docker, dood) and native start nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { planCost } from '../../src/run/budget.js';
import { planCells } from '../../src/run/cells.js';
import { DIND_START_S, IMAGE_LOAD_S, estimateRun, stepEstimates } from '../../src/run/estimate.js';
import { makePlan } from '../../src/run/plan.js';

/**
 * The plan's runnable cells as the run's budget sees them (src/run/command.js fitToBudget).
 * @param {ReturnType<typeof makePlan>} plan @param {string} profile
 */
function budgetCells(plan, profile) {
  const { steps } = stepEstimates({ plan, profile });
  /** @type {Map<string, number>} */
  const stepsS = new Map();
  plan.steps.forEach((s, i) => stepsS.set(s.cell, (stepsS.get(s.cell) ?? 0) + steps[i]));
  return [...planCells(plan, BENCHMARKS, {})].map(([key, c]) => ({
    key,
    ...c,
    baseline: c.environmentKey === 'docker',
    named: false,
    stepsS: stepsS.get(key) ?? 0,
  }));
}

for (const environments of [
  ['native', 'docker', 'podman'],
  ['docker', 'dind', 'sysbox', 'dood', 'podman'],
  ['native', 'docker', 'dind', 'dind-vfs'],
]) {
  test(`budget and estimate agree on ${environments.join(', ')}`, () => {
    const plan = makePlan({
      benchmarks: ['lifecycle', 'sysbench', 'redis'],
      environments,
      distros: ['debian'],
      engines: ['20.10', '26.1'],
      iterations: 5,
      warmup: 1,
    });
    const estimate = estimateRun({ plan, profile: 'quick' });
    const budget = planCost(budgetCells(plan, 'quick'), { startS: DIND_START_S, imageS: IMAGE_LOAD_S });
    assert.ok(Math.abs(budget - estimate.totalS) < 0.5, `budget ${budget} s, estimate ${estimate.totalS} s`);
    if (environments.includes('podman')) assert.ok(estimate.setupS >= DIND_START_S + IMAGE_LOAD_S);
  });
}
