// The evaluation's known-model threshold (bench/eval/ceiling.js): what a threshold on one run's level that
// knew the noise model exactly would catch at a given false-alarm rate, checked against the normal
// distribution's own answer.
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ceilingAt, cleanLevels, passing } from '../../bench/eval/ceiling.js';
import { normalDeviate, seededRandom } from '../../src/stats/index.js';

/**
 * Log-normal runs: a run level with log sd `between`, samples around it with log sd `within`.
 * @param {number} between @param {number} within @param {'lower' | 'higher'} [better]
 */
const logNormal = (between, within, better = 'lower') => ({
  name: 'log-normal',
  description: '',
  better,
  run: (/** @type {() => number} */ random, /** @type {number} */ n) => {
    const level = Math.exp(between * normalDeviate(random));
    return Array.from({ length: n }, () => level * Math.exp(within * normalDeviate(random)));
  },
});

/** Standard normal CDF: Student's t with so many degrees of freedom that it is the normal. @param {number} x */
const phi = (x) => tCdf(x, 1e9);

test('passing: the clean values themselves pass at the false-alarm rate, shifted ones more often', () => {
  const sorted = Float64Array.from({ length: 1000 }, (_, i) => i);
  assert.equal(passing(sorted, 0.01, 0), 0.01);
  assert.equal(passing(sorted, 0.1, 0), 0.1);
  // the threshold is 989 (10 values above it); shifted by 5.5, 984 to 999 pass
  assert.equal(passing(sorted, 0.01, 5.5), 0.016);
  assert.equal(passing(sorted, 0, 0), 0);
});

test('the known-model threshold on log-normal runs is what the normal distribution gives, in both directions', () => {
  // mean of 10 log samples: N(0, 0.05^2 + 0.1^2 / 10), sd 0.0592; a 10% change moves it by log 1.1
  const sd = Math.sqrt(0.05 ** 2 + 0.1 ** 2 / 10);
  for (const better of /** @type {const} */ (['lower', 'higher'])) {
    const clean = cleanLevels(logNormal(0.05, 0.1, better), seededRandom(3), 100000);
    const at = ceilingAt(clean, 0.01);
    const shift = better === 'lower' ? Math.log(1.1) : -Math.log(0.9);
    const expectedHere = phi(shift / sd - 2.3263);
    assert.ok(
      Math.abs(at.first['mean of logs'] - expectedHere) < 0.01,
      `${better}: ${at.first['mean of logs']} vs ${expectedHere}`,
    );
    // on normal logs the mean is the sharpest level and the median the bluntest
    assert.ok(at.first['mean of logs'] > at.first.median, JSON.stringify(at.first));
    assert.equal(at.hitFirst, Math.max(...Object.values(at.first)));
    assert.ok(Math.abs(at.hitWithin - (1 - (1 - at.hitFirst) ** 4)) < 1e-12);
  }
});

test('a model of several series: each series at the same rate, the shares averaged', () => {
  const quiet = logNormal(0.01, 0.01);
  const noisy = logNormal(0.3, 0.3);
  const both = { ...quiet, forTrial: (/** @type {number} */ t) => (t % 2 ? noisy : quiet) };
  const clean = cleanLevels(both, seededRandom(5), 40000);
  assert.equal(clean.levels.length, 2);
  const at = ceilingAt(clean, 0.01);
  const alone = (/** @type {any} */ m) => ceilingAt(cleanLevels(m, seededRandom(5), 20000), 0.01).first.median;
  assert.ok(Math.abs(at.first.median - (alone(quiet) + alone(noisy)) / 2) < 0.02, JSON.stringify(at.first));
  // a 10% change is 9 sd of the quiet series' level: always caught there; barely on the noisy one
  assert.ok(at.first.median > 0.5 && at.first.median < 0.55, String(at.first.median));
});
