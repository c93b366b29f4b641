// Minimum detectable change: a change of the reported size is detected about 8 times in 10 (the power it
// is computed for), by the same tests the reports use, on simulated runs; fewer samples than a test needs
// detect nothing; iterations for 5% make 5% detectable; a history whose runs differ by more than 5% says
// that more iterations cannot help.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smallestMannWhitneyP } from '../../src/results/within-run.js';
import { judge } from '../../src/stats/verdicts.js';
import {
  detectableAgainstHistory,
  detectableWithinRun,
  mannWhitneyU,
  normalDeviate,
  seededRandom,
  tQuantile,
} from '../../src/stats/index.js';

const random = seededRandom(5);
/** n log-normal samples around `center` with log sd `sd`. @param {number} n @param {number} center @param {number} sd */
const draw = (n, center, sd) => Array.from({ length: n }, () => center * Math.exp(sd * normalDeviate(random)));

test("Student's t quantiles match tables", () => {
  assert.ok(Math.abs(tQuantile(0.975, 10) - 2.228) < 1e-3);
  assert.ok(Math.abs(tQuantile(0.8, 5) - 0.92) < 1e-3);
  assert.ok(Math.abs(tQuantile(0.975, Infinity) - 1.96) < 0.01);
});

test('within a run: a change of the detectable size is found by Mann-Whitney about 80% of the time', () => {
  const n = 12;
  const sd = 0.05;
  const probe = detectableWithinRun(draw(200, 100, sd), draw(200, 100, sd), { smallestP: smallestMannWhitneyP });
  const d = detectableWithinRun(draw(n, 100, sd), draw(n, 100, sd), { smallestP: smallestMannWhitneyP });
  assert.ok(d.change !== null && d.change > 0.02 && d.change < 0.15, `detectable ${d.change}`);
  // Power at the change computed from the true spread (sd 5%, 12 vs 12).
  const exact = detectableWithinRun(
    Array.from({ length: n }, (_, i) => 100 * Math.exp(sd * normalQuantile((i + 0.5) / n))),
    Array.from({ length: n }, (_, i) => 100 * Math.exp(sd * normalQuantile((i + 0.5) / n))),
    { smallestP: smallestMannWhitneyP },
  );
  const shift = /** @type {number} */ (exact.change);
  let found = 0;
  const trials = 400;
  for (let i = 0; i < trials; i++) if (mannWhitneyU(draw(n, 100 * (1 + shift), sd), draw(n, 100, sd)).p < 0.05) found++;
  assert.ok(found / trials > 0.65 && found / trials < 0.92, `power ${found / trials} at ${shift}`);
  // and the iterations it names for 5% make 5% detectable with that spread
  assert.ok(probe.iterationsFor5Pct !== null);
  const m = /** @type {number} */ (probe.iterationsFor5Pct);
  let hits = 0;
  for (let i = 0; i < 200; i++) if (mannWhitneyU(draw(m, 105, sd), draw(m, 100, sd)).p < 0.05) hits++;
  assert.ok(hits / 200 > 0.65, `power ${hits / 200} at 5% with ${m} iterations`);
});

test('too few samples for any test: nothing is detectable, and it says how many iterations would be', () => {
  const d = detectableWithinRun([100, 102, 98], [101, 99, 103], { smallestP: smallestMannWhitneyP });
  assert.equal(d.change, null);
  assert.match(d.why, /no test at p < 0.05 is possible with 3 vs 3 samples/);
  assert.ok(d.iterationsFor5Pct !== null && d.iterationsFor5Pct >= 4);
  assert.equal(detectableWithinRun([100], [0, 1], { smallestP: smallestMannWhitneyP }).change, null);
});

test('against history: the detectable change is flagged by the verdict about 80% of the time', () => {
  const rule = { alpha: 0.01, minChange: 0.05, minRuns: 5, minSamples: 5, window: 30 };
  const between = 0.04;
  const pastRun = () => ({ samples: draw(10, 100 * Math.exp(between * normalDeviate(random)), 0.01) });
  const past = Array.from({ length: 12 }, pastRun);
  const d = detectableAgainstHistory(
    past.map((p) => median(p.samples)),
    draw(10, 100, 0.01),
    rule,
  );
  assert.ok(d.change !== null && d.change > 0.1, `detectable ${d.change}`);
  let found = 0;
  const trials = 300;
  for (let i = 0; i < trials; i++) {
    const hist = Array.from({ length: 12 }, pastRun);
    const now = draw(
      10,
      100 * Math.exp(between * normalDeviate(random)) * (1 + /** @type {number} */ (d.change)),
      0.01,
    );
    if (judge(hist, { samples: now }, 'lower', rule).status === 'regression') found++;
  }
  // the spread of the past medians is itself estimated from 12 runs: a wide band around 0.8
  assert.ok(found / trials > 0.55 && found / trials < 0.95, `power ${found / trials} at ${d.change}`);
  // runs 4% apart: more iterations cannot make 5% detectable
  assert.equal(d.iterationsFor5Pct, null);
  assert.match(d.why, /more iterations cannot reach 5%/);
  // quiet runs whose spread is mostly the medians' sampling error: iterations help
  const noisy = Array.from({ length: 12 }, () => ({ samples: draw(5, 100, 0.03) }));
  const q = detectableAgainstHistory(
    noisy.map((p) => median(p.samples)),
    draw(5, 100, 0.03),
    { ...rule, pastSamples: 5 },
  );
  assert.ok(q.iterationsFor5Pct !== null && q.iterationsFor5Pct > 5, `iterations ${q.iterationsFor5Pct}`);
  assert.ok(q.change !== null && q.change >= 0.05);
});

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Inverse normal CDF via the t quantile with infinite degrees of freedom. @param {number} p */
function normalQuantile(p) {
  return tQuantile(p, 1e6);
}
