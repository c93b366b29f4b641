// The detection evaluation's pieces that decide its verdict on issue 21 (bench/eval/): the peers'
// thresholds as their documentation states them, the rates per judged run, and "one setting for every
// model", the loosest setting that holds the false alarms on each model, the same for all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bencherPercentage, bencherTTest, githubActionBenchmark } from '../../bench/eval/peers.js';
import { bits, oneSetting, pairedDifference, rates } from '../../bench/eval/sequences.js';

/** Runs of 3 identical samples at these values (a run's median is its value). @param {number[]} xs */
const runs = (xs) => xs.map((x) => [x, x, x]);

test("Bencher's t_test fires above mean + t[boundary; n-1] x the population sd, and not below it", () => {
  // past 10, 12, 14: mean 12, population sd sqrt(8/3) = 1.633; t[0.99; 2] = 6.965 -> limit 23.37
  const rule = bencherTTest(0.99);
  const at = (/** @type {number} */ v) => rule.alarms(runs([10, 12, 14]), runs([v]), 'lower', [0.99])[0][0];
  assert.equal(at(23.2), false);
  assert.equal(at(23.6), true);
  // higher is better: the limit is below the mean
  const lowerAt = (/** @type {number} */ v) => rule.alarms(runs([10, 12, 14]), runs([v]), 'higher', [0.99])[0][0];
  assert.equal(lowerAt(0.8), false);
  assert.equal(lowerAt(0.5), true);
});

test("Bencher's percentage and github-action-benchmark's alert-threshold", () => {
  const pctRule = bencherPercentage(0.1);
  // mean of 90, 100, 110 is 100: 10% above is 110; then 109 joins the history, mean 102.25, limit 112.475
  assert.deepEqual(pctRule.alarms(runs([90, 100, 110]), runs([109, 113]), 'lower', [0.1])[0], [false, true]);
  assert.deepEqual(pctRule.alarms(runs([90, 100, 110]), runs([109, 112]), 'lower', [0.1])[0], [false, false]);
  const gab = githubActionBenchmark(1.1);
  // only the previous run counts: 100 -> 111 alerts, then 111 -> 115 does not (judged runs are appended)
  assert.deepEqual(gab.alarms(runs([50, 100]), runs([111, 115]), 'lower', [1.1])[0], [true, false]);
  // bigger is better: previous / current
  assert.deepEqual(gab.alarms(runs([100]), runs([90, 80]), 'higher', [1.1])[0], [true, true]);
});

test('rates count false alarms per judged run, on the first and within the judged runs', () => {
  const clean = Uint8Array.from([bits([false, false, false, false]), bits([false, true, false, true])]);
  const worse = Uint8Array.from([bits([true, false, false, false]), bits([false, false, true, false])]);
  assert.deepEqual(rates(clean, worse), {
    falseFirst: 0,
    falseWithin: 0.5,
    falsePerRun: 2 / 8,
    hitFirst: 0.5,
    hitWithin: 1,
  });
});

test('one setting for every model: the loosest that holds the target on each model, or none', () => {
  /** A model's results for three settings, given each setting's clean-run alarm masks. */
  const model = (/** @type {number[][]} */ cleanPerSetting) => ({
    clean: cleanPerSetting.map((masks) => Uint8Array.from(masks)),
    worse: cleanPerSetting.map((masks) => Uint8Array.from(masks.map(() => 1))),
  });
  // 10 trials x 4 judged runs = 40 judged runs a model; one flagged run is 2.5%
  const quiet = model([
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  ]);
  const noisy = model([
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  ]);
  const rule = {
    name: 'r',
    params: [0.1, 0.2, 0.3],
    defaultParam: 0.2,
    looser: /** @type {const} */ ('higher'),
    alarms: () => [],
  };
  // 0.3 fires on both models; 0.2 only on the noisy one (2.5%); 0.1 on neither
  assert.deepEqual(oneSetting(rule, [quiet, noisy], 0.03), { param: 0.2, index: 1 });
  assert.deepEqual(oneSetting(rule, [quiet, noisy], 0.01), { param: 0.1, index: 0 });
  assert.deepEqual(oneSetting(rule, [quiet], 0.03), { param: 0.3, index: 2 });
  // a rule whose lower values are looser (a threshold)
  const threshold = { ...rule, params: [0.3, 0.2, 0.1], looser: /** @type {const} */ ('lower') };
  assert.deepEqual(oneSetting(threshold, [quiet, noisy], 0.03), { param: 0.2, index: 1 });
  const always = model([
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  ]);
  assert.equal(oneSetting(rule, [quiet, always], 0.01), null);
});

test('paired difference: the same trials of two rules, with a 95% interval that tells chance from a real gap', () => {
  // 400 trials; rule a flags judged run 0 in 40 of them, rule b in the same 40 and 20 more.
  const a = new Uint8Array(400);
  const b = new Uint8Array(400);
  for (let t = 0; t < 40; t++) a[t] = b[t] = 1;
  for (let t = 40; t < 60; t++) b[t] = 0b100; // b flags only a later run here: within, not first
  for (let t = 60; t < 80; t++) b[t] = 1;
  const d = pairedDifference(a, b);
  assert.equal(d.n, 400);
  assert.equal(d.first.diff, -20 / 400);
  assert.equal(d.within.diff, -40 / 400);
  // sd of 20 values -1 and 380 zeros, / sqrt(400), x 1.96
  const sd = Math.sqrt((20 - 400 * (20 / 400) ** 2) / 399);
  assert.ok(Math.abs(d.first.half - (1.96 * sd) / 20) < 1e-12, String(d.first.half));
  assert.ok(d.first.diff + d.first.half < 0, 'a gap of 20 in 400 paired trials is beyond chance');
  // The same gap spread over trials where a also flags what b misses is within chance.
  const c = new Uint8Array(400);
  for (let t = 0; t < 40; t++) c[t] = 1;
  for (let t = 100; t < 103; t++) c[t] = 1;
  const e = new Uint8Array(400);
  for (let t = 0; t < 40; t++) e[t] = 1;
  for (let t = 200; t < 205; t++) e[t] = 1;
  const near = pairedDifference(c, e);
  assert.equal(near.first.diff, -2 / 400);
  assert.ok(near.first.diff + near.first.half > 0, 'two trials in 400 are not a real gap');
  // Only the first n trials of the shorter are paired (Apache Otava runs on the first of each model's trials).
  assert.equal(pairedDifference(a, b.subarray(0, 50)).n, 50);
});
