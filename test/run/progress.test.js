// Progress: elapsed time and an ETA that starts from plan's estimates and follows what the steps take.
// A clock the test controls, so the figures are exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateRun, stepEstimates } from '../../src/run/estimate.js';
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
