// A quick run's 3 vs 3 samples can never give p < 0.05 with the exact Mann-Whitney test, so "no clear
// difference" would mislead there: the reading says inconclusive, the samples too few. And the four
// outcomes of src/model/change.js outcomeOf, each from a comparison that has it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outcomeOf, reading, smallestMannWhitneyP } from '../../src/results/within-run.js';
import { mannWhitneyU } from '../../src/stats/index.js';

test('the smallest exact Mann-Whitney p-value per sample size matches the test itself', () => {
  for (const [n, m] of [
    [3, 3],
    [4, 4],
    [3, 5],
    [5, 5],
  ]) {
    const low = Array.from({ length: n }, (_, i) => i);
    const high = Array.from({ length: m }, (_, i) => 100 + i);
    assert.ok(Math.abs(mannWhitneyU(high, low).p - smallestMannWhitneyP(n, m)) < 1e-9, `${n} vs ${m}`);
  }
  assert.equal(smallestMannWhitneyP(3, 3), 0.1);
  assert.ok(smallestMannWhitneyP(4, 4) < 0.05);
});

test('a comparison reads as one of four outcomes, with its threshold and what it could see', () => {
  const base = {
    better: 'lower',
    ratio: { ratio: 4.89, low: 3.5, high: 6.1 },
    significant: false,
    threshold: 0.1,
    detectable: { change: 0.47 },
  };
  // Too few for any test: never equivalent, whatever the interval.
  assert.equal(
    reading(/** @type {any} */ ({ ...base, testable: false, detectable: { change: null } })),
    '+389% ±130 inconclusive (too few)',
  );
  // Not significant (after the run's false-alarm control): inconclusive, with the smallest change it could see.
  assert.equal(reading(/** @type {any} */ ({ ...base, testable: true })), '+389% ±130 inconclusive (sees ≥ 47%)');
  assert.equal(reading(/** @type {any} */ ({ ...base, significant: true, testable: true })), '+389% ▲ regression');
  // higher is better: twice the throughput is half the cost, never below -100%
  const faster = {
    better: 'higher',
    ratio: { ratio: 2, low: 1.6, high: 2.5 },
    significant: true,
    testable: true,
    threshold: 0.05,
  };
  assert.equal(reading(/** @type {any} */ (faster)), '-50% ▼ improvement');
  // The whole interval inside ±5%: proven equivalent.
  const small = {
    better: 'higher',
    ratio: { ratio: 0.99, low: 0.97, high: 1.01 },
    significant: false,
    testable: true,
    threshold: 0.05,
  };
  assert.equal(outcomeOf(/** @type {any} */ (small)), 'equivalent');
  assert.equal(reading(/** @type {any} */ (small)), '+1.0% ±2 equivalent (±5%)');
  // The same estimate, an interval reaching past +5%: inconclusive, not "no change".
  const wide = { ...small, ratio: { ratio: 0.99, low: 0.94, high: 1.01 }, detectable: { change: 0.08 } };
  assert.equal(reading(/** @type {any} */ (wide)), '+1.0% ±4 inconclusive (sees ≥ 8.0%)');
  // Significant but below T, interval reaching past T: inconclusive; inside the band: equivalent.
  const real = {
    better: 'lower',
    ratio: { ratio: 1.04, low: 1.01, high: 1.12 },
    significant: true,
    testable: true,
    threshold: 0.1,
  };
  assert.equal(outcomeOf(/** @type {any} */ (real)), 'inconclusive');
  assert.equal(
    outcomeOf(/** @type {any} */ ({ ...real, ratio: { ratio: 1.04, low: 1.01, high: 1.07 } })),
    'equivalent',
  );
  assert.equal(reading(/** @type {any} */ ({ ...small, ratio: { ratio: NaN, low: NaN, high: NaN } })), '–');
});
