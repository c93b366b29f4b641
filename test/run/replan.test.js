// The plan re-made after each cell's first iteration (src/run/replan.js): the cell's estimate becomes its
// own measured time, and the steps left are fitted again into what is left of the budget by the budget's
// rules. On a machine slower than the plan, default cells that no longer fit go, named, the least value
// per second first; a faster one keeps them all; named cells and the start-up a job pays never go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCALE_MAX, SCALE_MIN, allMeasured, observedScale, remainingByCell, replan } from '../../src/run/replan.js';
import { makePlan } from '../../src/run/plan.js';

/** A quick-like plan: the start-up in docker, dind, dind-vfs; CPU and disk in docker and dind; 5 rounds. */
const plan = makePlan({
  benchmarks: ['lifecycle', 'sysbench', 'iozone'],
  environments: ['docker', 'dind', 'dind-vfs'],
  distros: ['debian'],
  engines: ['20.10'],
  iterations: 5,
  warmup: 0,
  only: { 'dind-vfs': ['lifecycle', 'iozone'] },
});
/** Each step's calibrated estimate: 4 s a step, dind-vfs 8 s. */
const estimates = plan.steps.map((s) => (s.cell.includes('dind-vfs') ? 8 : 4));

/**
 * The plan's cells as the budget judged them. @param {string[]} [named] keys named on the command line
 * @returns {import('../../src/run/budget.js').PlanCell[]}
 */
const cellsOf = (named = []) =>
  plan.cells.map((c) => {
    const [environment] = c.env.split('@');
    return {
      key: c.key,
      benchmark: c.benchmark,
      distro: c.distro,
      environment,
      environmentKey: c.env,
      engine: c.engine,
      image: null,
      baseline: c.env === 'docker',
      named: named.includes(c.key),
      stepsS: 0,
    };
  });

/**
 * The state after the first round of lifecycle: its three cells took `factor` times their estimate.
 * @param {number} factor @returns {{ from: number, measured: Map<string, number[]> }}
 */
function afterLifecycleRound(factor) {
  const from = plan.steps.findIndex((s, i) => i > 0 && s.iteration === 1);
  /** @type {Map<string, number[]>} */
  const measured = new Map();
  for (let i = 0; i < from; i++) measured.set(plan.steps[i].cell, [estimates[i] * factor * 1000]);
  return { from, measured };
}
const pending = () => true;
/** What the reference plan's steps from `from` need, by the estimates alone. @param {number} from */
const plannedFrom = (from) => estimates.slice(from).reduce((a, b) => a + b, 0);

test('what each cell still needs: its own measured time once it has one, else its estimate', () => {
  const { from, measured } = afterLifecycleRound(2);
  const left = remainingByCell(plan.steps, from, estimates, measured, pending);
  // lifecycle in dind-vfs: 4 steps left at its measured 16 s; sysbench in docker: 5 steps at the estimate.
  assert.equal(left.get('lifecycle/dind-vfs@20.10/debian'), 4 * 16);
  assert.equal(left.get('sysbench/docker/debian'), 5 * 4);
  assert.equal(left.get('iozone/dind-vfs@20.10/debian'), 5 * 8);
  // A cell that will not run (left out, failed) needs nothing.
  const without = remainingByCell(plan.steps, from, estimates, measured, (k) => !k.startsWith('sysbench/dind'));
  assert.equal(without.has('sysbench/dind@20.10/debian'), false);
  assert.equal(allMeasured(['lifecycle/docker/debian'], measured), true);
  assert.equal(allMeasured(['lifecycle/docker/debian', 'sysbench/docker/debian'], measured), false);
});

test('a machine slower than the plan: default cells that no longer fit go, named, the least value per second first; the start-up stays', () => {
  const { from, measured } = afterLifecycleRound(2);
  // The budget held the plan as estimated, with a little to spare.
  const leftS = plannedFrom(from) * 1.1;
  const r = replan(cellsOf(), remainingByCell(plan.steps, from, estimates, measured, pending), leftS);
  assert.ok(r.remainingS > leftS, 'the plan no longer fits');
  assert.ok(r.dropped.length > 0);
  assert.ok(r.fits && r.keptS <= leftS, `kept ${r.keptS} s within ${leftS} s`);
  for (const c of r.dropped) assert.notEqual(c.benchmark, 'lifecycle', `${c.key}: the start-up never goes`);
  // dind-vfs's disk (not DinD against Docker) goes first; still over, a DinD comparison with the Docker cell
  // it alone kept (iozone's and sysbench's save the same: the later in the plan goes). sysbench stays.
  assert.deepEqual(
    r.dropped.map((c) => c.key),
    ['iozone/docker/debian', 'iozone/dind@20.10/debian', 'iozone/dind-vfs@20.10/debian'],
  );
  // In plan order, each a key the run names.
  const order = plan.cells.map((c) => c.key);
  const keys = r.dropped.map((c) => c.key);
  assert.deepEqual(
    keys,
    [...keys].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
  );
});

test('a machine faster than the plan keeps every cell', () => {
  const { from, measured } = afterLifecycleRound(0.8);
  const r = replan(cellsOf(), remainingByCell(plan.steps, from, estimates, measured, pending), plannedFrom(from));
  assert.deepEqual(r.dropped, []);
  assert.ok(r.fits && r.remainingS < plannedFrom(from));
});

test('named cells never go: what was named keeps its rounds, and the re-plan says it does not fit', () => {
  const { from, measured } = afterLifecycleRound(3);
  const named = plan.cells.filter((c) => c.benchmark !== 'lifecycle').map((c) => c.key);
  const r = replan(cellsOf(named), remainingByCell(plan.steps, from, estimates, measured, pending), 10);
  assert.deepEqual(r.dropped, []);
  assert.equal(r.fits, false);
});

test('a cell that is done is not judged again; far over, everything default but the start-up goes', () => {
  const { from, measured } = afterLifecycleRound(4);
  const r = replan(cellsOf(), remainingByCell(plan.steps, from, estimates, measured, pending), 1);
  assert.deepEqual(
    r.dropped.map((c) => c.key),
    [
      'sysbench/docker/debian',
      'sysbench/dind@20.10/debian',
      'iozone/docker/debian',
      'iozone/dind@20.10/debian',
      'iozone/dind-vfs@20.10/debian',
    ],
  );
  assert.equal(r.fits, false, 'the start-up alone is over: said, kept');
  // After the last step nothing is left to fit.
  const end = replan(cellsOf(), remainingByCell(plan.steps, plan.steps.length, estimates, measured, pending), 0);
  assert.deepEqual([end.dropped, end.remainingS, end.fits], [[], 0, true]);
});

test('observedScale: the measured cells over their estimates, each cell once, bounded; 1 before any ran', () => {
  const steps = ['a', 'b', 'a', 'c'].map((cell) => ({ cell, warmup: false }));
  const estimates = [2, 4, 2, 10];
  assert.equal(observedScale(steps, estimates, new Map()), 1);
  // a took 3 s (its estimate 2), b 6 s (4): 9 s for 6 s planned
  assert.equal(
    observedScale(
      steps,
      estimates,
      new Map([
        ['a', [3000]],
        ['b', [5000, 7000]],
      ]),
    ),
    1.5,
  );
  assert.equal(observedScale(steps, estimates, new Map([['a', [100_000]]])), SCALE_MAX);
  assert.equal(observedScale(steps, estimates, new Map([['c', [10]]])), SCALE_MIN);
  // a cell not measured yet is planned at the scale; a measured one at its own mean
  const left = remainingByCell(steps, 0, estimates, new Map([['a', [3000]]]), () => true, 1.5);
  assert.deepEqual(
    [...left],
    [
      ['a', 6],
      ['b', 6],
      ['c', 15],
    ],
  );
});
