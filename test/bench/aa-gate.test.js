// The pure part of the A/A gate benchmark (bench/eval/aa.js): the plan with two copies of an environment,
// the random split, the resampled and between-run documents, the tally of outcomes, the Wilson interval.
// No engine: the benchmark itself (bench/aa-gate.js) runs the real A/A.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  acrossRuns,
  aaPlan,
  addUp,
  falseFindings,
  resampledRun,
  sees,
  sideKey,
  splitAtRandom,
  tally,
  wilson,
} from '../../bench/eval/aa.js';
import { against } from '../../bench/eval/aa-report.js';
import { readAb } from '../../src/reading/index.js';
import { makePlan } from '../../src/run/plan.js';
import { seededRandom } from '../../src/stats/index.js';

test('sideKey names the copies, the engine part last', () => {
  assert.equal(sideKey('docker', 'a'), 'docker-a');
  assert.equal(sideKey('dind@20.10', 'b'), 'dind-b@20.10');
});

test('aaPlan runs every environment twice, A then B in every round, nothing else changed', () => {
  const plan = makePlan({
    benchmarks: ['lifecycle', 'sysbench'],
    environments: ['docker'],
    distros: ['debian'],
    engines: [],
    iterations: 3,
    warmup: 1,
  });
  const aa = aaPlan(plan);
  assert.deepEqual(
    aa.environments.map((e) => [e.key, e.name, e.engine]),
    [
      ['docker-a', 'docker', null],
      ['docker-b', 'docker', null],
    ],
  );
  assert.deepEqual(
    aa.cells.map((c) => c.key),
    ['lifecycle/docker-a/debian', 'lifecycle/docker-b/debian', 'sysbench/docker-a/debian', 'sysbench/docker-b/debian'],
  );
  assert.equal(aa.steps.length, 2 * plan.steps.length);
  // Each planned step becomes A then B, with its iteration and warm-up flag.
  for (let i = 0; i < plan.steps.length; i++) {
    const [a, b] = [aa.steps[2 * i], aa.steps[2 * i + 1]];
    assert.equal(a.cell, plan.steps[i].cell.replace('/docker/', '/docker-a/'));
    assert.equal(b.cell, plan.steps[i].cell.replace('/docker/', '/docker-b/'));
    for (const s of [a, b]) assert.deepEqual([s.iteration, s.warmup], [plan.steps[i].iteration, plan.steps[i].warmup]);
  }
  // Every step names a cell of the plan.
  const keys = new Set(aa.cells.map((c) => c.key));
  assert.ok(aa.steps.every((s) => keys.has(s.cell)));
  // Both copies of a DinD environment keep its inner engine.
  const dind = aaPlan(
    makePlan({
      benchmarks: ['lifecycle'],
      environments: ['dind'],
      distros: ['debian'],
      engines: ['20.10'],
      iterations: 1,
      warmup: 0,
    }),
  );
  assert.deepEqual(
    dind.cells.map((c) => [c.env, c.engine]),
    [
      ['dind-a@20.10', '20.10'],
      ['dind-b@20.10', '20.10'],
    ],
  );
});

test('splitAtRandom: two halves of the sizes asked, together the same samples, input unchanged, seeded', () => {
  const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const copy = [...xs];
  const [a, b] = splitAtRandom(xs, 4, seededRandom(1));
  assert.equal(a.length, 4);
  assert.equal(b.length, 6);
  assert.deepEqual(
    [...a, ...b].sort((x, y) => x - y),
    xs,
  );
  assert.deepEqual(xs, copy);
  assert.deepEqual(splitAtRandom(xs, 4, seededRandom(1)), [a, b]);
  // Random: over many splits every sample lands in the first half about sizeA/n of the time.
  const random = seededRandom(7);
  const inFirst = new Array(10).fill(0);
  for (let i = 0; i < 4000; i++) for (const x of splitAtRandom(xs, 5, random)[0]) inFirst[x - 1]++;
  for (const n of inFirst) assert.ok(Math.abs(n / 4000 - 0.5) < 0.04, `share ${n / 4000}`);
  assert.throws(() => splitAtRandom(xs, 11, random), RangeError);
});

/** @param {string} env @param {Record<string, number[]>} metrics @param {string} [benchmark] */
const cell = (env, metrics, benchmark = 'sysbench') => ({
  benchmark,
  environment: 'docker',
  environmentKey: env,
  distro: 'debian',
  engine: null,
  status: 'ok',
  metrics: Object.entries(metrics).map(([metric, samples]) => ({
    metric,
    unit: 'ms',
    better: 'lower',
    samples,
    warmup: [],
  })),
  raw: [],
});

test('resampledRun pools each metric of the two copies and splits it into sets of their sizes', () => {
  const a = cell('docker-a', { x: [1, 2, 3, 4, 5], y: [10, 11, 12, 13, 14] });
  const b = cell('docker-b', { x: [6, 7, 8, 9, 10, 11], y: [15, 16, 17, 18, 19, 20] });
  const doc = resampledRun([a], [b], seededRandom(3));
  assert.deepEqual(
    doc.cells.map((c) => c.environmentKey),
    ['a', 'b'],
  );
  for (const [i, metric] of ['x', 'y'].entries()) {
    const [ma, mb] = doc.cells.map((c) => c.metrics[i]);
    assert.equal(ma.metric, metric);
    assert.equal(ma.samples.length, 5);
    assert.equal(mb.samples.length, 6);
    const pooled = [...a.metrics[i].samples, ...b.metrics[i].samples].sort((p, q) => p - q);
    assert.deepEqual(
      [...ma.samples, ...mb.samples].sort((p, q) => p - q),
      pooled,
    );
  }
  // The recorded cells are left as they were.
  assert.deepEqual(a.metrics[0].samples, [1, 2, 3, 4, 5]);
  // A metric only one copy has, or a benchmark only one copy ran, is not compared.
  const lone = resampledRun([cell('docker-a', { z: [1, 2, 3] }, 'fio')], [b], seededRandom(3));
  assert.deepEqual(lone.cells, []);
});

test('acrossRuns reads one run against another as environments a and b', () => {
  const doc = acrossRuns([cell('docker-a', { x: [1, 2, 3] })], [cell('docker-a', { x: [4, 5, 6] })]);
  assert.deepEqual(
    doc.cells.map((c) => [c.environmentKey, c.metrics[0].samples]),
    [
      ['a', [1, 2, 3]],
      ['b', [4, 5, 6]],
    ],
  );
});

test('tally counts outcomes; the gate judges only comparisons with an outcome; addUp sums runs', () => {
  const t = tally([
    { outcome: 'regression' },
    { outcome: 'inconclusive' },
    { outcome: 'inconclusive' },
    { outcome: 'equivalent' },
    { outcome: null },
  ]);
  assert.deepEqual(t, {
    gated: 4,
    regression: 1,
    improvement: 0,
    equivalent: 1,
    inconclusive: 2,
    unread: 1,
    anyRegression: true,
    anyImprovement: false,
  });
  const none = tally([{ outcome: 'equivalent' }, { outcome: 'improvement' }]);
  assert.equal(none.anyRegression, false);
  assert.equal(none.anyImprovement, true);
  assert.deepEqual(addUp([t, none, none]), {
    pairs: 3,
    comparisons: 8,
    regression: 1,
    improvement: 2,
    equivalent: 3,
    inconclusive: 2,
    unread: 1,
    pairsWithRegression: 1,
    pairsWithImprovement: 2,
  });
});

test('on a real reading: a clear shift of a decision metric is a regression, the same samples are not', () => {
  const base = [100, 101, 99, 100, 102, 98, 100, 101, 99, 100];
  const worse = base.map((x) => x * 1.5);
  // lifecycle's decision metric: the start-up a job pays (lower is better)
  const at = (/** @type {number[]} */ b) => cell('b', { 'startup.total_ms': b }, 'lifecycle');
  const shifted = tally(
    readAb(/** @type {any} */ ({ cells: [cell('a', { 'startup.total_ms': base }, 'lifecycle'), at(worse)] }), 'a', 'b'),
  );
  assert.equal(shifted.regression, 1);
  const same = tally(
    readAb(
      /** @type {any} */ ({ cells: [cell('a', { 'startup.total_ms': base }, 'lifecycle'), at([...base])] }),
      'a',
      'b',
    ),
  );
  assert.equal(same.regression, 0);
  assert.equal(same.equivalent, 1);
  // A metric outside the run's questions is described: no outcome, counted as unread.
  const described = tally(
    readAb(/** @type {any} */ ({ cells: [cell('a', { x: base }), cell('b', { x: worse })] }), 'a', 'b'),
  );
  assert.equal(described.regression, 0);
  assert.equal(described.unread, 1);
});

test('wilson: the textbook values, inside [0, 1], not empty at 0 of n', () => {
  // 0 of 3: upper bound z^2 / (n + z^2) = 3.8415 / 6.8415
  const zero = wilson(0, 3);
  assert.equal(zero.rate, 0);
  assert.equal(zero.low, 0);
  assert.ok(Math.abs(zero.high - 0.5615) < 1e-3, String(zero.high));
  // 5 of 100: 2.15% to 11.18% (Newcombe 1998's method 3)
  const five = wilson(5, 100);
  assert.ok(Math.abs(five.low - 0.0215) < 1e-3 && Math.abs(five.high - 0.1118) < 1e-3, JSON.stringify(five));
  const all = wilson(10, 10);
  assert.equal(all.high, 1);
  assert.ok(all.low > 0.69 && all.low < 0.73);
  assert.ok(Number.isNaN(wilson(1, 0).rate));
});

test('against says at or under only when the whole interval is', () => {
  assert.match(against({ rate: 0, low: 0, high: 0.012 }, 0.05), /^at or under/);
  assert.match(against({ rate: 0, low: 0, high: 0.56 }, 0.05), /too few to show/);
  assert.match(against({ rate: 0.2, low: 0.1, high: 0.3 }, 0.05), /^ABOVE/);
});

test('falseFindings counts each changed metric over readings, most frequent first; sees takes the median', () => {
  const r = (/** @type {string} */ metric, /** @type {string | null} */ outcome) => ({
    benchmark: 'fio',
    metric,
    outcome,
  });
  assert.deepEqual(
    falseFindings([
      [r('x', 'regression'), r('y', 'inconclusive')],
      [r('x', 'regression'), r('y', 'improvement')],
      [r('z', 'equivalent')],
    ]),
    [
      { name: 'fio x regression', count: 2 },
      { name: 'fio y improvement', count: 1 },
    ],
  );
  assert.deepEqual(falseFindings([[r('y', 'inconclusive')]]), []);
  const seen = sees([
    { outcome: 'inconclusive', detectable: { change: 0.5 } },
    { outcome: 'inconclusive', detectable: { change: 1.5 } },
    { outcome: 'equivalent', detectable: { change: 0.1 } },
    { outcome: 'inconclusive', detectable: { change: null } },
    { outcome: null, detectable: { change: 9 } },
  ]);
  assert.deepEqual(seen, { median: 0.5, none: 1 });
});
