// A quick run's 3 vs 3 samples can never give p < 0.05 with the exact Mann-Whitney test, so "no clear
// difference" would mislead there: the reading says the samples are too few and points at the interval.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reading } from '../../src/compare/rows.js';
import { smallestMannWhitneyP } from '../../src/compare/within-run.js';
import { mannWhitneyU } from '../../src/stats/index.js';

test('the smallest exact Mann-Whitney p-value per sample size matches the test itself', () => {
  for (const [n, m] of [[3, 3], [4, 4], [3, 5], [5, 5]]) {
    const low = Array.from({ length: n }, (_, i) => i);
    const high = Array.from({ length: m }, (_, i) => 100 + i);
    assert.ok(Math.abs(mannWhitneyU(high, low).p - smallestMannWhitneyP(n, m)) < 1e-9, `${n} vs ${m}`);
  }
  assert.equal(smallestMannWhitneyP(3, 3), 0.1);
  assert.ok(smallestMannWhitneyP(4, 4) < 0.05);
});

test('a comparison no test could find reads "too few samples", one a test could have found reads "no clear difference"', () => {
  const base = { worse: 3.89, significant: false, candidate: { n: 3 }, baseline: { n: 3 } };
  assert.equal(reading(/** @type {any} */ ({ ...base, testable: false })), '+389.0%, too few samples to test (3 vs 3): read the interval');
  assert.equal(reading(/** @type {any} */ ({ ...base, testable: true })), 'no clear difference (+389.0%)');
  assert.equal(reading(/** @type {any} */ ({ ...base, significant: true, testable: true, magnitude: 'large' })), '+389.0% worse (large)');
});
