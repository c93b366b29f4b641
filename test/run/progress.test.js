// Progress: elapsed time and an ETA that starts from plan's estimates and follows what the steps take.
// A clock the test controls, so the figures are exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateRun, stepEstimates } from '../../src/run/estimate.js';
import { validateParamOverrides } from '../../src/run/params.js';
import { makePlan } from '../../src/run/plan.js';
import { Progress, duration } from '../../src/run/progress.js';

test('ETA: the estimate at first, then scaled by what each benchmark took in each environment', () => {
  let now = 0;
  const steps = [
    { benchmark: 'a', environment: 'native', seconds: 10 },
    { benchmark: 'a', environment: 'docker', seconds: 10 },
    { benchmark: 'a', environment: 'native', seconds: 10 },
    { benchmark: 'a', environment: 'docker', seconds: 10 },
    { benchmark: 'b', environment: 'native', seconds: 100 },
  ];
  const p = new Progress(steps, { now: () => now });
  assert.equal(p.remainingSeconds(), 140);
  now = 20_000;
  p.finished(0, 20); // a in native took twice its estimate
  // a/native x2 (20); a/docker has no step yet: a's ratio, x2 (20 + 20); b: the run's ratio so far, x2 (200)
  assert.equal(p.remainingSeconds(), 20 + 20 + 20 + 200);
  p.finished(1, 5); // a in docker took half
  assert.equal(p.remainingSeconds(), 20 + 5 + (100 * 25) / 20);
  assert.equal(p.note(), `(elapsed 20s, ETA ${duration(20 + 5 + 125)})`);
  p.skip(2); // done in an earlier attempt: not counted
  assert.equal(p.remainingSeconds(), 5 + 125);
  assert.equal(
    p.remainingSeconds((i) => i !== 4),
    5,
    'a step whose cell stopped is not counted',
  );
});

test('duration: seconds, minutes, hours', () => {
  assert.deepEqual([0, 59.4, 60, 725, 3600, 3 * 3600 + 7 * 60 + 59].map(duration), [
    '0s',
    '59s',
    '1m00s',
    '12m05s',
    '1h00m',
    '3h07m',
  ]);
});

test("step estimates add up to plan's estimate of the run", () => {
  const plan = makePlan({
    benchmarks: ['lifecycle', 'sysbench'],
    environments: ['native', 'docker', 'dind'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 3,
    warmup: 1,
  });
  const { steps, setupS } = stepEstimates({ plan, profile: 'quick' });
  assert.equal(steps.length, plan.steps.length);
  assert.ok(steps.every((s) => s > 0));
  assert.ok(setupS > 0);
  const total = setupS + steps.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(total - estimateRun({ plan, profile: 'quick' }).totalS) < 1, `${total}`);
});

test('the alternatives, which have no overhead of their own measured, are planned as DinD in plan and in the ETA alike', () => {
  // Before, plan used DinD's overhead for them but the progress ETA read none, and printed "estimated NaNhNaNm".
  const plan = makePlan({
    benchmarks: ['lifecycle'],
    environments: ['docker', 'dood', 'dind-rootless', 'dind-fuse-overlayfs'],
    distros: ['debian'],
    engines: ['20.10'],
    iterations: 2,
    warmup: 0,
  });
  const { steps, setupS } = stepEstimates({ plan, profile: 'quick' });
  assert.ok(
    steps.every((s) => Number.isFinite(s) && s > 0),
    `${steps}`,
  );
  const total = setupS + steps.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(total - estimateRun({ plan, profile: 'quick' }).totalS) < 1, `${total}`);
});

test('estimates and parameters come from the registry the run is given, not only the built-in one', () => {
  // A benchmark only this registry has (as test/run/run.test.js runs one): before the registry was
  // passed through, stepEstimates threw reading its estimateSeconds from the built-in registry.
  /** @type {import('../../src/benchmarks/benchmark.js').Benchmark} */
  const custom = {
    name: 'custom',
    image: 'sysbench',
    description: 'test only',
    params: { quick: { seconds: 7 } },
    estimateSeconds: (/** @type {any} */ p) => p.seconds * 2,
    measure: async () => [],
  };
  const registry = { custom };
  const plan = makePlan({
    benchmarks: ['custom'],
    environments: ['docker'],
    distros: ['debian'],
    engines: [],
    iterations: 2,
    warmup: 0,
  });
  const { steps } = stepEstimates({ plan, profile: 'quick', registry });
  assert.equal(steps.length, 2);
  assert.ok(
    steps.every((s) => s > 14),
    `the tool's own 14 s plus docker's overhead: ${steps}`,
  );
  const run = estimateRun({ plan, profile: 'quick', registry, paramOverrides: { custom: { seconds: 1 } } });
  assert.equal(run.benchmarks[0].perIterationS, 2, 'the override reaches the registry benchmark');
  assert.throws(() => stepEstimates({ plan, profile: 'quick' }), TypeError, 'the built-in registry has no custom');
  assert.deepEqual(validateParamOverrides({ custom: { seconds: 3 } }, 'c.json', registry), { custom: { seconds: 3 } });
  assert.throws(
    () => validateParamOverrides({ custom: { size: '1M' } }, 'c.json', registry),
    /not a parameter of custom/,
  );
});

test('a long first step far from its plan re-plans the rest, and the progress line says so once', () => {
  let now = 0;
  const p = new Progress(
    [
      { benchmark: 'workload.job', environment: 'dind', seconds: 120 },
      { benchmark: 'workload.job', environment: 'dind', seconds: 120 },
      { benchmark: 'workload.job', environment: 'dind', seconds: 120 },
    ],
    { now: () => now },
  );
  now = 240_000;
  p.finished(0, 240);
  assert.equal(
    p.note(),
    '(elapsed 4m00s, ETA 8m00s, re-planned from the first workload.job in dind: 4m00s, planned 2m00s)',
  );
  p.finished(1, 240);
  assert.equal(p.note(), '(elapsed 4m00s, ETA 4m00s)', 'said once');
});

test('a short step or one near its plan is not said to re-plan', () => {
  const p = new Progress([
    { benchmark: 'sysbench', environment: 'docker', seconds: 4 },
    { benchmark: 'workload.job', environment: 'docker', seconds: 100 },
  ]);
  p.finished(0, 8);
  assert.doesNotMatch(p.note(), /re-planned/);
  p.finished(1, 110);
  assert.doesNotMatch(p.note(), /re-planned/);
});
