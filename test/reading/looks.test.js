// The rate spent over the looks of a run whose look sizes are recorded (results run.lookSizes): Pocock-type
// spending (src/reading/decide.js DESIGN) reads every look of the quick design looser than Bonferroni over
// the looks, the first about twice as loose (a budgeted run reads most questions there), so a decision
// Bonferroni leaves open at the first look is made there, and a file without look sizes is read as before.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { probit } from 'simple-statistics';
import { decideOne, decisionLevel, levelAt, lookLevels } from '../../src/reading/decide.js';
import { readWithinRun } from '../../src/reading/index.js';

const QUICK = [5, 7, 10, 12];

/** n values whose logs are the normal quantiles scaled to sd `sd` (no randomness), around `centre`. @param {number} n @param {number} sd @param {number} centre */
const spread = (n, sd, centre = 100) =>
  Array.from({ length: n }, (_, i) => centre * Math.exp(sd * probit((i + 0.5) / n)));

test("the quick profile's looks: each looser than Bonferroni's, the first about twice as loose, every look's level between looks the next one's", () => {
  const bonferroni = decisionLevel(11, 4).alpha;
  const levels = lookLevels(11, QUICK);
  assert.deepEqual(
    levels.map((l) => l.n),
    QUICK,
  );
  assert.ok(levels[0].alpha > 2 * bonferroni, `${levels[0].alpha}`);
  for (const l of levels) assert.ok(l.alpha > bonferroni, `${l.n}: ${l.alpha}`);
  // the nominal alphas add up to more than the decision's share: the looks share samples, so the chance of
  // any false crossing over all four is still the share (test/stats/sequential.test.js simulates it)
  assert.ok(levels.reduce((sum, l) => sum + l.alpha, 0) > 4 * bonferroni);
  for (const l of levels) assert.ok(Math.abs(l.level - (1 - 2 * l.alpha)) < 1e-15);
  assert.equal(levelAt(levels, 7), levels[1].level);
  assert.equal(levelAt(levels, 8), levels[2].level);
  assert.equal(levelAt(levels, 3), levels[0].level);
  assert.equal(levelAt(levels, 30), levels[3].level);
});

test('an equivalence within ±10% Bonferroni leaves open at the first look is decided there; a wider spread stays open', () => {
  // 5 a side, no change, a log spread of 4%: Welch's interval at Bonferroni's level reaches past ±10%, at
  // the first look's Pocock level it does not.
  const c = /** @type {const} */ ({
    better: 'lower',
    threshold: 0.1,
    samples: { baseline: spread(5, 0.04), candidate: spread(5, 0.04) },
  });
  assert.equal(decideOne(c, decisionLevel(11, 4).level).outcome, 'inconclusive');
  assert.equal(decideOne(c, levelAt(lookLevels(11, QUICK), 5)).outcome, 'equivalent');
  // a spread of 6% is open under either: the first look is looser, not loose
  const wide = { ...c, samples: { baseline: spread(5, 0.06), candidate: spread(5, 0.06) } };
  assert.equal(decideOne(wide, levelAt(lookLevels(11, QUICK), 5)).outcome, 'inconclusive');
});

test("a reading reads each decision at its look's level when the run recorded its look sizes, else as before", () => {
  const file = new URL('../fixtures/results/decide-quick-5.json', import.meta.url);
  const results = JSON.parse(readFileSync(file, 'utf8'));
  const before = readWithinRun(results).filter((c) => c.decision);
  assert.ok(before.length > 1);
  const single = decisionLevel(before.length, results.run.looks ?? 1).level;
  for (const c of before) assert.equal(c.level, single);
  const sized = { ...results, run: { ...results.run, looks: 4, lookSizes: QUICK } };
  const levels = lookLevels(before.length, QUICK);
  for (const c of readWithinRun(sized).filter((x) => x.decision))
    assert.equal(c.level, levelAt(levels, Math.min(c.baseline.n, c.candidate.n)));
  // sizes that do not match the looks' count, or do not grow, are not trusted: read as before
  const bad = { ...results, run: { ...results.run, looks: 4, lookSizes: [5, 5, 10, 12] } };
  for (const c of readWithinRun(bad).filter((x) => x.decision))
    assert.equal(c.level, decisionLevel(before.length, 4).level);
});
