// Group-sequential boundaries (src/stats/sequential.js): the published Lan-DeMets O'Brien-Fleming-type
// boundaries for four equally spaced looks at one-sided 2.5% (4.333, 2.963, 2.359, 2.014, as R's gsDesign gives), one look is the plain normal quantile, and a
// simulated statistic under no change crosses some look's boundary at the rate spent, no more: what makes
// a decision read at any look honest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundaries, nominalAlphas, spent } from '../../src/stats/sequential.js';
import { normalDeviate, seededRandom } from '../../src/stats/index.js';

test("O'Brien-Fleming-type spending over 4 equal looks gives the published boundaries", () => {
  const four = boundaries([0.25, 0.5, 0.75, 1], 0.025, 'obrien-fleming');
  assert.deepEqual(
    four.map((z) => Number(z.toFixed(3))),
    [4.333, 2.963, 2.359, 2.014],
  );
});

test('one look is the normal quantile, whatever the spending', () => {
  for (const design of /** @type {const} */ (['pocock', 'obrien-fleming'])) {
    const [z] = boundaries([1], 0.01, design);
    assert.ok(Math.abs(z - 2.3263) < 1e-3, `${design}: ${z}`);
  }
  assert.deepEqual(nominalAlphas([5], 0.01, 'bonferroni'), [0.01]);
});

test('spending functions spend all of alpha at the end and nothing before the start', () => {
  for (const design of /** @type {const} */ (['pocock', 'obrien-fleming'])) {
    assert.ok(Math.abs(spent(design, 0.004, 1) - 0.004) < 1e-12);
    assert.equal(spent(design, 0.004, 0), 0);
    assert.ok(spent(design, 0.004, 0.5) < 0.004);
  }
  // O'Brien-Fleming keeps almost all of it for the last look; Pocock spends more early.
  assert.ok(spent('obrien-fleming', 0.004, 5 / 12) < spent('pocock', 0.004, 5 / 12) / 10);
});

test("the quick profile's looks (5, 7, 10, 12 a side): a statistic under no change crosses at the rate spent", () => {
  const looks = [5, 7, 10, 12];
  const alpha = 0.05 / 11;
  const random = seededRandom(53);
  const trials = 400_000;
  for (const design of /** @type {const} */ (['pocock', 'obrien-fleming'])) {
    const z = boundaries(
      looks.map((n) => n / 12),
      alpha,
      design,
    );
    let crossed = 0;
    for (let i = 0; i < trials; i++) {
      // the standardized mean of n unit normals, one sample at a time: the looks share their samples
      let sum = 0;
      let n = 0;
      for (const [k, look] of looks.entries()) {
        for (; n < look; n++) sum += normalDeviate(random);
        if (sum / Math.sqrt(look) >= z[k]) {
          crossed++;
          break;
        }
      }
    }
    const rate = crossed / trials;
    // within 3 binomial standard errors of alpha
    const se = Math.sqrt((alpha * (1 - alpha)) / trials);
    assert.ok(Math.abs(rate - alpha) < 3 * se, `${design}: ${rate} against ${alpha} ± ${3 * se}`);
  }
  // Each look is read looser than Bonferroni's alpha / 4 where the design spends most (Pocock: every
  // look; O'Brien-Fleming: the last), because the looks share their samples.
  const bonferroni = alpha / looks.length;
  assert.ok(nominalAlphas(looks, alpha, 'pocock').every((a) => a > bonferroni));
  assert.ok(nominalAlphas(looks, alpha, 'obrien-fleming')[3] > 3 * bonferroni);
});

test('boundaries refuse looks that do not grow or an alpha out of range', () => {
  assert.throws(() => boundaries([0.5, 0.5], 0.01, 'pocock'), /increase/);
  assert.throws(() => boundaries([0.5, 1.2], 0.01, 'pocock'), /increase/);
  assert.throws(() => boundaries([1], 0.7, 'pocock'), /alpha/);
});
