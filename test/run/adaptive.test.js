// Adaptive sampling decisions (src/run/adaptive.js): a benchmark's need from its samples' spread, which
// benchmark gets the next round, why one stops, and --budget's durations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needAndGate, needOf, nextRound, stopReason } from '../../src/run/adaptive.js';
import { smallestMannWhitneyP } from '../../src/results/within-run.js';
import { normalDeviate, seededRandom } from '../../src/stats/index.js';
import { parseDuration } from '../../src/text/durations.js';

const random = seededRandom(3);
/** @param {number} n @param {number} sd @param {number} [center] */
const samples = (n, sd, center = 100) => Array.from({ length: n }, () => center * Math.exp(sd * normalDeviate(random)));
/** @param {number} n @param {number} sd @param {number} [shift] */
function cells(n, sd, shift = 1) {
  return [
    {
      environment: 'docker',
      environmentKey: 'docker',
      distro: 'debian',
      metrics: [
        { metric: 'a', samples: samples(n, sd) },
        { metric: 'b', samples: samples(n, sd) },
      ],
    },
    {
      environment: 'dind',
      environmentKey: 'dind@20.10',
      distro: 'debian',
      metrics: [
        { metric: 'a', samples: samples(n, sd, 100 * shift) },
        { metric: 'b', samples: samples(n, sd, 100 * shift) },
      ],
    },
  ];
}

test('need: infinite while no test is possible, above 1 while too noisy for 5%, at most 1 once narrow enough', () => {
  assert.equal(needOf(cells(3, 0.01), 0.05, smallestMannWhitneyP), Infinity);
  assert.ok(needOf(cells(5, 0.2), 0.05, smallestMannWhitneyP) > 1);
  assert.ok(needOf(cells(20, 0.01), 0.05, smallestMannWhitneyP) <= 1);
  // the need does not depend on the difference between the sides (what keeps the test valid)
  const same = needOf(cells(8, 0.05), 0.05, smallestMannWhitneyP);
  assert.ok(Number.isFinite(same));
  // a benchmark without DinD and Docker cells has nothing to sample for
  assert.equal(needOf([cells(5, 0.1)[0]], 0.05, smallestMannWhitneyP), 0);
});

test('next round: largest need per second that fits the budget; none when all are narrow, capped or too dear', () => {
  const opts = { budgetMs: 0, minChange: 0.05, maxIterations: 30, reserveMs: 0 };
  const states = [
    { benchmark: 'cheap-noisy', need: 4, roundMs: 2000, iterations: 5 },
    { benchmark: 'dear-noisy', need: 4, roundMs: 60_000, iterations: 5 },
    { benchmark: 'narrow', need: 0.8, roundMs: 1000, iterations: 5 },
    { benchmark: 'capped', need: 9, roundMs: 1000, iterations: 30 },
  ];
  assert.equal(nextRound(states, 100_000, opts)?.benchmark, 'cheap-noisy');
  assert.equal(nextRound(states.slice(1), 100_000, opts)?.benchmark, 'dear-noisy');
  assert.equal(nextRound(states.slice(1), 30_000, opts), null, 'a round that does not fit the budget is not started');
  assert.equal(
    nextRound([{ benchmark: 'x', need: Infinity, roundMs: 5000, iterations: 3 }, states[0]], 100_000, opts)?.benchmark,
    'x',
    'untestable first',
  );
  assert.equal(stopReason(states[2], 0, opts), 'narrow enough');
  assert.equal(stopReason(states[3], 100_000, opts), 'iteration cap');
  assert.equal(stopReason(states[1], 30_000, opts), 'budget spent');
});

test('--budget durations', () => {
  assert.equal(parseDuration('15m'), 900_000);
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('900'), 900_000);
  assert.ok(Number.isNaN(parseDuration('5q')));
  assert.ok(Number.isNaN(parseDuration('')));
});

test('aimed at a decision: each metric against its threshold, and a gated comparison decides its benchmark', () => {
  const c = cells(8, 0.08).map((x) => ({ ...x, benchmark: 'lifecycle' }));
  // A 10% threshold needs less than a 5% one: the MDC is divided by T.
  const at5 = needOf(c, 0.05, smallestMannWhitneyP);
  const at10 = needOf(c, 0.05, smallestMannWhitneyP, undefined, { thresholdOf: () => 0.1 });
  assert.ok(Math.abs(at5 / at10 - 2) < 1e-9, `${at5} vs ${at10}`);
  // Gated on metric b alone: the need is b's, whatever a's.
  const onlyB = needAndGate(c, 0.05, smallestMannWhitneyP, undefined, { gated: (_b, m) => m === 'b' });
  assert.equal(onlyB.gated, true);
  const noisyA = c.map((x) => ({
    ...x,
    metrics: x.metrics.map((m) => (m.metric === 'a' ? { ...m, samples: samples(8, 0.6) } : m)),
  }));
  assert.equal(
    needAndGate(noisyA, 0.05, smallestMannWhitneyP, undefined, { gated: (_b, m) => m === 'b' }).need,
    onlyB.need,
  );
  assert.ok(needOf(noisyA, 0.05, smallestMannWhitneyP) >= onlyB.need);
  // Every environment judged against Docker counts, not only dind (the reading's one pairing rule).
  const dood = c.map((x) => (x.environment === 'dind' ? { ...x, environment: 'dood', environmentKey: 'dood' } : x));
  assert.ok(needOf(dood, 0.05, smallestMannWhitneyP) > 0);
});

test('next round: a gated benchmark that cannot decide yet goes first, however cheap the others', () => {
  const opts = { budgetMs: 0, minChange: 0.05, maxIterations: 30, reserveMs: 0 };
  const states = [
    { benchmark: 'sysbench', need: 9, roundMs: 500, iterations: 5 },
    { benchmark: 'lifecycle', need: 1.5, roundMs: 30_000, iterations: 5, gated: true },
  ];
  assert.equal(nextRound(states, 100_000, opts)?.benchmark, 'lifecycle');
  // Once the gated one can decide (or cannot fit), the others get the rounds.
  assert.equal(nextRound([states[0], { ...states[1], need: 0.9 }], 100_000, opts)?.benchmark, 'sysbench');
  assert.equal(nextRound(states, 10_000, opts)?.benchmark, 'sysbench');
});
