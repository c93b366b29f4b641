// A quick run's 3 vs 3 samples can never give p < 0.05 with the exact Mann-Whitney test, so "no clear
// difference" would mislead there: the reading says the samples are too few and points at the interval.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reading, smallestMannWhitneyP } from '../../src/results/within-run.js';
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

test('a comparison reads compactly: "▲ worse" only when significant, else the change with ± and why no verdict', () => {
  const base = {
    better: 'lower',
    worse: 3.89,
    ratio: { ratio: 4.89, low: 3.5, high: 6.1 },
    significant: false,
    candidate: { n: 3 },
    baseline: { n: 3 },
  };
  assert.equal(reading(/** @type {any} */ ({ ...base, testable: false })), '+389% ±130 (too few)');
  assert.equal(reading(/** @type {any} */ ({ ...base, testable: true })), '+389% ±130 (no diff)');
  assert.equal(reading(/** @type {any} */ ({ ...base, significant: true, testable: true })), '+389% ▲ worse');
  // higher is better: twice the throughput is half the cost, never below -100%
  const faster = { better: 'higher', ratio: { ratio: 2, low: 1.6, high: 2.5 }, significant: true, testable: true };
  assert.equal(reading(/** @type {any} */ (faster)), '-50% ▼ better');
  const small = {
    better: 'higher',
    ratio: { ratio: 0.973, low: 0.94, high: 1.01 },
    significant: false,
    testable: true,
  };
  assert.equal(reading(/** @type {any} */ (small)), '+2.8% ±4 (no diff)');
  assert.equal(reading(/** @type {any} */ ({ ...small, ratio: { ratio: NaN, low: NaN, high: NaN } })), '–');
});
