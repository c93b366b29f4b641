// The rate spent over the looks of a run whose look sizes are recorded (results run.lookSizes): O'Brien-
// Fleming-type spending (src/reading/decide.js DESIGN) reads the first look far stricter than Bonferroni over
// the looks and the last one looser, so a decision the quick run's cap could not make under Bonferroni is
// made there, one it made at its first look waits for a later one, and a file without look sizes is read
// as before.
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

test("the quick profile's looks: the first stricter than Bonferroni's, the last far looser, every look's level between looks the next one's", () => {
  const bonferroni = decisionLevel(11, 4).alpha;
  const levels = lookLevels(11, QUICK);
  assert.deepEqual(
    levels.map((l) => l.n),
    QUICK,
  );
  assert.ok(levels[0].alpha < bonferroni / 10, `${levels[0].alpha}`);
  assert.ok(levels[3].alpha > 3 * bonferroni, `${levels[3].alpha}`);
  for (const l of levels) assert.ok(Math.abs(l.level - (1 - 2 * l.alpha)) < 1e-15);
  assert.equal(levelAt(levels, 7), levels[1].level);
  assert.equal(levelAt(levels, 8), levels[2].level);
  assert.equal(levelAt(levels, 3), levels[0].level);
  assert.equal(levelAt(levels, 30), levels[3].level);
});

test('an equivalence within ±10% the cap cannot decide under Bonferroni is decided at its last look; a first look decides less', () => {
  // 12 a side, no change, a log spread of 7%: Welch's interval at 99.77% reaches past ±10%, at the last
  // look's level it does not.
  const samples = { baseline: spread(12, 0.07), candidate: spread(12, 0.07) };
  const c = /** @type {const} */ ({ better: 'lower', threshold: 0.1, samples });
  assert.equal(decideOne(c, decisionLevel(11, 4).level).outcome, 'inconclusive');
  assert.equal(decideOne(c, levelAt(lookLevels(11, QUICK), 12)).outcome, 'equivalent');
  // 5 a side, a log spread of 2%: Bonferroni decides equivalence at the first look, the first look's
  // stricter level waits.
  const five = { ...c, samples: { baseline: spread(5, 0.02), candidate: spread(5, 0.02) } };
  assert.equal(decideOne(five, decisionLevel(11, 4).level).outcome, 'equivalent');
  assert.equal(decideOne(five, levelAt(lookLevels(11, QUICK), 5)).outcome, 'inconclusive');
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
