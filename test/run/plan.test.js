// The run plan as a table of inputs -> cells and order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makePlan } from '../../src/run/plan.js';

const base = {
  benchmarks: ['sysbench'],
  environments: ['native', 'docker', 'dind', 'dind-vfs'],
  distros: ['debian'],
  engines: ['20.10'],
  iterations: 2,
  warmup: 1,
};

test('environments: DinD once per inner engine, the others once', () => {
  const plan = makePlan({ ...base, engines: ['20.10', '26.1'] });
  assert.deepEqual(
    plan.environments.map((e) => e.key),
    ['native', 'docker', 'dind@20.10', 'dind@26.1', 'dind-vfs@20.10', 'dind-vfs@26.1'],
  );
  assert.deepEqual(
    plan.environments.filter((e) => e.engine).map((e) => e.engine),
    ['20.10', '26.1', '20.10', '26.1'],
  );
});

test('steps interleave environments within each iteration, warm-up first', () => {
  const plan = makePlan({ ...base, environments: ['docker', 'dind'] });
  assert.deepEqual(
    plan.steps.map((s) => `${s.cell}#${s.iteration}${s.warmup ? 'w' : ''}`),
    [
      'sysbench/docker/debian#-1w',
      'sysbench/dind@20.10/debian#-1w',
      'sysbench/docker/debian#0',
      'sysbench/dind@20.10/debian#0',
      'sysbench/docker/debian#1',
      'sysbench/dind@20.10/debian#1',
    ],
  );
});

test('native runs once per benchmark whatever the distributions, as distro "host"', () => {
  const plan = makePlan({ ...base, distros: ['debian', 'alpine'], iterations: 1, warmup: 0 });
  assert.deepEqual(
    plan.cells.map((c) => c.key),
    [
      'sysbench/native/host',
      'sysbench/docker/debian',
      'sysbench/dind@20.10/debian',
      'sysbench/dind-vfs@20.10/debian',
      'sysbench/docker/alpine',
      'sysbench/dind@20.10/alpine',
      'sysbench/dind-vfs@20.10/alpine',
    ],
  );
  assert.equal(plan.steps.length, plan.cells.length);
});

test('every cell gets warm-up + iterations steps', () => {
  const plan = makePlan({ ...base, benchmarks: ['lifecycle', 'sysbench'], iterations: 3, warmup: 1 });
  for (const cell of plan.cells) {
    const steps = plan.steps.filter((s) => s.cell === cell.key);
    assert.equal(steps.length, 4, cell.key);
    assert.deepEqual(
      steps.map((s) => s.warmup),
      [true, false, false, false],
    );
  }
});

test('the next Engine line: its environment last, with cells only for its benchmarks, interleaved with theirs', async () => {
  const { estimateRun } = await import('../../src/run/estimate.js');
  const nextLine = { engine: '26.1', environment: 'dind', benchmarks: ['lifecycle'] };
  const plan = makePlan({ ...base, benchmarks: ['lifecycle', 'sysbench'], warmup: 0, nextLine });
  assert.deepEqual(
    plan.environments.map((e) => e.key),
    ['native', 'docker', 'dind@20.10', 'dind-vfs@20.10', 'dind@26.1'],
  );
  const next = plan.cells.filter((c) => c.env === 'dind@26.1');
  assert.deepEqual(next, [
    { key: 'lifecycle/dind@26.1/debian', benchmark: 'lifecycle', env: 'dind@26.1', distro: 'debian', engine: '26.1' },
  ]);
  // Each lifecycle round runs every environment of it, the next line's last; sysbench's rounds have none of it.
  assert.deepEqual(
    plan.steps.slice(0, 5).map((s) => s.cell.split('/')[1]),
    ['native', 'docker', 'dind@20.10', 'dind-vfs@20.10', 'dind@26.1'],
  );
  assert.ok(!plan.steps.some((s) => s.cell.startsWith('sysbench/dind@26.1')));
  // Its set-up is one start and one image: the estimate counts each DinD environment's own images.
  const without = estimateRun({
    plan: makePlan({ ...base, benchmarks: ['lifecycle', 'sysbench'], warmup: 0 }),
    profile: 'quick',
  });
  const withNext = estimateRun({ plan, profile: 'quick' });
  assert.equal(Math.round((withNext.setupS - without.setupS) * 10) / 10, 6);
});
