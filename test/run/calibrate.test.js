// The plan that knows the machine, before its first step (src/run/calibrate.js): the probe's time against
// the reference's scales every estimate, bounded; the budget then decides on the scaled estimates, so a
// slower machine plans less (naming what it leaves out) and a faster one keeps the whole plan, never more
// than the budget. The probe itself really runs here (threads and a disk), and leaves nothing behind.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BENCHMARKS } from '../../src/benchmarks/index.js';
import { validateResults } from '../../src/results/schema.js';
import { fitAtPlan } from '../../src/run/budget.js';
import {
  FACTOR_MAX,
  FACTOR_MIN,
  REFERENCE_PROBE_MS,
  calibrated,
  calibrationOf,
  fastestProbe,
  probeMachine,
} from '../../src/run/calibrate.js';
import { planCells } from '../../src/run/cells.js';
import { DIND_START_S, IMAGE_LOAD_S, stepEstimates } from '../../src/run/estimate.js';
import { makePlan } from '../../src/run/plan.js';
import { PROFILES } from '../../src/run/profiles.js';

test('the factor is the probe against the reference, to two decimals, bounded', () => {
  assert.deepEqual(calibrationOf(1500, 1000), { probeMs: 1500, referenceMs: 1000, factor: 1.5 });
  assert.equal(calibrationOf(1234, 1000).factor, 1.23);
  assert.equal(calibrationOf(900, 1000).factor, 0.9);
  // A much faster machine: the time-bound tools do not follow it down.
  assert.equal(calibrationOf(100, 1000).factor, FACTOR_MIN);
  // A burst during the probe: bounded; each cell's first iteration re-plans anyway.
  assert.equal(calibrationOf(60_000, 1000).factor, FACTOR_MAX);
  assert.equal(calibrationOf(REFERENCE_PROBE_MS).factor, 1, 'the reference machine is itself');
  // No probe time (it could not run): the estimates as they are.
  assert.equal(calibrationOf(0, 1000).factor, 1);
  assert.equal(calibrationOf(Number.NaN, 1000).factor, 1);
});

test('calibrated estimates: every step and the set-up scaled by the factor', () => {
  const e = { steps: [2, 4, 10], setupS: 6 };
  assert.deepEqual(calibrated(e, 1.5), { steps: [3, 6, 15], setupS: 9 });
  assert.deepEqual(calibrated(e, 1), e);
  assert.deepEqual(e, { steps: [2, 4, 10], setupS: 6 }, 'the reference estimates are left as they were');
});

/** The quick profile's own plan, as `run --profile quick` makes it with nothing named. */
function quickPlan() {
  const p = PROFILES.quick;
  return makePlan({
    benchmarks: /** @type {string[]} */ (p.benchmarks),
    environments: /** @type {string[]} */ (p.environments),
    distros: ['debian'],
    engines: ['20.10'],
    iterations: p.iterations,
    warmup: p.warmup,
    nextLine: { engine: '26.1', environment: 'dind', benchmarks: ['lifecycle'] },
    only: p.only ?? null,
  });
}

/**
 * The plan's cells as the budget judges them (src/run/command.js fitToBudget), on a machine `factor` times
 * the reference, and the set-up's costs scaled the same.
 * @param {ReturnType<typeof makePlan>} plan @param {number} factor
 */
function atFactor(plan, factor) {
  const { steps } = calibrated(stepEstimates({ plan, profile: 'quick' }), factor);
  /** @type {Map<string, number>} */
  const stepsS = new Map();
  plan.steps.forEach((s, i) => stepsS.set(s.cell, (stepsS.get(s.cell) ?? 0) + steps[i]));
  const cells = [...planCells(plan, BENCHMARKS, {})].map(([key, c]) => ({
    key,
    ...c,
    baseline: c.environmentKey === 'docker',
    named: false,
    stepsS: stepsS.get(key) ?? 0,
  }));
  return { cells, setup: { startS: DIND_START_S * factor, imageS: IMAGE_LOAD_S * factor } };
}

test('a slower machine plans less before the first step, naming what it leaves out; a faster one keeps it all; never more than the budget', () => {
  const plan = quickPlan();
  const reference = atFactor(plan, 1);
  const wholeS = fitAtPlan(reference.cells, Infinity, reference.setup).needS;
  // A budget that holds the reference plan with 10% to spare.
  const leftS = wholeS * 1.1;
  assert.deepEqual(fitAtPlan(reference.cells, leftS, reference.setup).leftOut, []);

  const faster = atFactor(plan, calibrationOf(REFERENCE_PROBE_MS * 0.8).factor);
  const fast = fitAtPlan(faster.cells, leftS, faster.setup);
  assert.deepEqual(fast.leftOut, [], 'a faster machine keeps every cell');
  assert.ok(fast.keptS < wholeS);

  const slower = atFactor(plan, calibrationOf(REFERENCE_PROBE_MS * 1.6).factor);
  const slow = fitAtPlan(slower.cells, leftS, slower.setup);
  assert.ok(slow.needS > leftS, 'the reference plan would not fit this machine');
  assert.ok(slow.leftOut.length > 0, 'it plans less');
  assert.ok(slow.fits && slow.keptS <= leftS, `kept ${slow.keptS} s within ${leftS} s`);
  for (const c of slow.leftOut) {
    assert.equal(c.named, false);
    assert.notEqual(c.benchmark, 'lifecycle', `${c.key}: the start-up a job pays is never left out`);
  }
  // What is left out is the least value per second first: DinD against Docker stays while another kind can go.
  if (slow.leftOut.some((c) => c.environment === 'dind')) {
    const otherKept = slower.cells.filter(
      (c) => !slow.leftOut.includes(c) && !c.baseline && c.benchmark !== 'lifecycle' && c.environment !== 'dind',
    );
    assert.deepEqual(otherKept, [], 'a dind comparison goes only when no other default one is left');
  }
});

test('never more than the budget: over a range of machines and budgets, a plan that fits is within what is left', () => {
  const plan = quickPlan();
  const wholeS = fitAtPlan(atFactor(plan, 1).cells, Infinity, atFactor(plan, 1).setup).needS;
  for (const factor of [0.75, 1, 1.3, 1.6, 2, 3, 4])
    for (const share of [0.3, 0.5, 0.8, 1, 1.2, 2]) {
      const { cells, setup } = atFactor(plan, factor);
      const fit = fitAtPlan(cells, wholeS * share, setup);
      if (fit.fits) assert.ok(fit.keptS <= wholeS * share + 1e-9, `x${factor}, ${share} of the plan`);
      // What does not fit is only what may never go: the start-up a job pays and its baseline.
      else
        for (const c of cells.filter((k) => !fit.leftOut.includes(k)))
          assert.ok(c.benchmark === 'lifecycle', `x${factor}, ${share}: ${c.key} kept over the budget`);
    }
});

test('the probe runs its threads and its writes, and removes its folder', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'calibration-test-'));
  try {
    const p = await probeMachine(dir);
    assert.ok(p.cpuMs > 0 && p.diskMs >= 0, JSON.stringify(p));
    assert.ok(Math.abs(p.probeMs - p.cpuMs - p.diskMs) <= 1, 'its parts add up (rounded)');
    assert.deepEqual(readdirSync(dir), [], 'nothing left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(existsSync(dir), false);
});

test('a run takes the fastest of up to three probes, and stops at the first no slower than the reference', async () => {
  const timed = (/** @type {number[]} */ ms) => {
    const taken = /** @type {number[]} */ ([]);
    const probe = async () => {
      const probeMs = ms[taken.length];
      taken.push(probeMs);
      return { cpuMs: probeMs, diskMs: 0, probeMs };
    };
    return { taken, probe };
  };
  const burst = timed([805, 700, 760]);
  assert.equal(await fastestProbe('unused', 3, burst.probe), 700, 'a burst during one probe does not scale the plan');
  assert.deepEqual(burst.taken, [805, 700, 760]);
  const quiet = timed([REFERENCE_PROBE_MS - 40, 400]);
  assert.equal(await fastestProbe('unused', 3, quiet.probe), REFERENCE_PROBE_MS - 40);
  assert.equal(quiet.taken.length, 1, 'no second probe when the first is no slower than the reference');
  // The real probe, twice at most, on this machine.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'calibration-test-'));
  try {
    const ms = await fastestProbe(dir, 2);
    assert.ok(ms > 0 && Number.isFinite(ms), String(ms));
    assert.deepEqual(readdirSync(dir), [], 'nothing left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the probe stops at its limit: past it the factor is at its bound whatever the rest would take', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'calibration-test-'));
  try {
    const p = await probeMachine(dir, 1);
    assert.ok(p.probeMs >= 1, JSON.stringify(p));
    assert.equal(calibrationOf(p.probeMs, 1).factor, FACTOR_MAX);
    assert.deepEqual(readdirSync(dir), [], 'nothing left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('results record the calibration, the re-plans and each question; the schema refuses what they cannot be', () => {
  const doc = JSON.parse(readFileSync(new URL('../fixtures/results/decide-quick-5.json', import.meta.url), 'utf8'));
  doc.run.calibration = { probeMs: 1084, referenceMs: REFERENCE_PROBE_MS, factor: 1.67 };
  doc.run.replans = [
    {
      after: 'iozone/dind@20.10/debian',
      remainingS: 52.3,
      leftS: 40.1,
      dropped: ['iozone/dind-vfs@20.10/debian'],
      why: 'its planned rounds no longer fit',
    },
  ];
  doc.run.replannedS = 398.2;
  doc.run.questions = [
    {
      benchmark: 'lifecycle',
      metric: 'startup.without_image_ms',
      baseline: 'docker/debian',
      candidate: 'dind@20.10/debian',
      samples: 5,
      stopped: 'decided',
    },
  ];
  assert.doesNotThrow(() => validateResults(structuredClone(doc), 'with planning'));
  for (const [what, change] of /** @type {[string, (d: any) => void][]} */ ([
    ['a factor of 0', (d) => (d.run.calibration.factor = 0)],
    ['an unknown field', (d) => (d.run.calibration.extra = 1)],
    ['a re-plan without why', (d) => delete d.run.replans[0].why],
    ['an unknown stop', (d) => (d.run.questions[0].stopped = 'bored')],
    ['negative samples', (d) => (d.run.questions[0].samples = -1)],
  ])) {
    const bad = structuredClone(doc);
    change(bad);
    assert.throws(() => validateResults(bad, what), /not a valid results document/, what);
  }
});
