// Sampling until decided (src/run/adaptive.js): which decisions are open at a look, which benchmark gets
// the next round, why one stops, the design's looks, and --budget's durations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decisionsOf, isLook, looksOf, nextRound, stopReason } from '../../src/run/adaptive.js';
import { looksUpTo } from '../../src/model/decisions.js';
import { normalDeviate, seededRandom } from '../../src/stats/index.js';
import { parseDuration } from '../../src/text/durations.js';

const random = seededRandom(3);
/** @param {number} n @param {number} sd @param {number} [center] */
const samples = (n, sd, center = 100) => Array.from({ length: n }, () => center * Math.exp(sd * normalDeviate(random)));
/** Docker, dind and dind-vfs cells of lifecycle: dind `shift` times Docker's start-up. @param {number} n @param {number} sd @param {number} shift */
function lifecycle(n, sd, shift) {
  const cell = (/** @type {string} */ env, /** @type {number} */ center) => ({
    benchmark: 'lifecycle',
    environment: env.split('@')[0],
    environmentKey: env,
    distro: 'debian',
    status: 'pending',
    metrics: [
      { metric: 'startup.without_image_ms', better: /** @type {const} */ ('lower'), samples: samples(n, sd, center) },
      // described only: never opens a decision, however noisy
      { metric: 'container.stop_ms', better: /** @type {const} */ ('lower'), samples: samples(n, 1, center) },
    ],
  });
  return [cell('docker', 100), cell('dind@20.10', 100 * shift), cell('dind-vfs@20.10', 4000)];
}

test('a decision is open until its interval decides it; described metrics never open one', () => {
  const level = 0.995;
  // dind 20% dearer with 30% noise: open at 5 a side; dind-vfs 40 times dearer: decided.
  const noisy = decisionsOf('lifecycle', lifecycle(5, 0.3, 1.2), { level });
  assert.equal(noisy.decided, 1);
  assert.deepEqual(
    noisy.open.map((d) => [d.metric, d.baseline, d.candidate]),
    [['startup.without_image_ms', 'docker/debian', 'dind@20.10/debian']],
  );
  assert.ok(noisy.open[0].samplesToDecide === null || noisy.open[0].samplesToDecide > 5);
  // The same with 1% noise: both decided (dind a regression beyond 10%).
  assert.deepEqual(decisionsOf('lifecycle', lifecycle(5, 0.01, 1.2), { level }), { open: [], decided: 2 });
});

test('between looks a decision stays as it was read at the last look', () => {
  const memo = new Map();
  const opts = { level: 0.995, memo, isLook: (/** @type {number} */ n) => n === 5 };
  const cells = lifecycle(5, 0.3, 1.2);
  assert.equal(decisionsOf('lifecycle', cells, opts).open.length, 1);
  // Six samples a side that would decide it: not a look, so still open.
  const quiet = lifecycle(6, 0.001, 1.2);
  assert.equal(decisionsOf('lifecycle', quiet, opts).open.length, 1);
  assert.equal(decisionsOf('lifecycle', quiet, { level: 0.995 }).open.length, 0);
});

test("the design's looks: the planned rounds, LOOKS between, the cap", () => {
  assert.deepEqual(looksUpTo(5, 12), [5, 7, 10, 12]);
  assert.deepEqual(looksUpTo(5, 5), [5]);
  assert.deepEqual(looksUpTo(3, 30), [3, 5, 7, 10, 14, 20, 28, 30]);
  const opts = { budgetMs: 1, maxIterations: 12, reserveMs: 0, firstLook: 5 };
  assert.equal(looksOf(opts), 4);
  assert.ok(isLook(7, opts) && !isLook(8, opts) && isLook(12, opts));
});

/** @param {Partial<import('../../src/run/adaptive.js').BenchmarkState> & { need?: number }} s */
const state = ({ need = 10, ...s }) => ({
  benchmark: 'b',
  open: [
    { metric: 'm', baseline: 'docker/debian', candidate: 'dind/debian', samplesToDecide: need, gated: false, n: 5 },
  ],
  decided: 0,
  roundMs: 1000,
  iterations: 5,
  gated: false,
  cells: ['docker/debian', 'dind/debian'],
  ...s,
});

test('next round: the open decision closest to an answer per second; none when all are decided, capped or too dear', () => {
  const opts = { budgetMs: 600_000, maxIterations: 12, reserveMs: 0, firstLook: 5 };
  const near = state({ benchmark: 'near', need: 7, roundMs: 10_000 });
  const far = state({ benchmark: 'far', need: 40, roundMs: 1000 });
  const cheapNear = state({ benchmark: 'cheap', need: 6, roundMs: 1000 });
  assert.equal(nextRound([near, far], 60_000, opts)?.benchmark, 'near'); // 2 rounds x 10 s < 35 rounds x 1 s
  assert.equal(nextRound([near, far, cheapNear], 60_000, opts)?.benchmark, 'cheap');
  // A decision more samples cannot decide comes last.
  assert.equal(
    nextRound(
      [state({ benchmark: 'never', need: undefined, open: [{ ...state({}).open[0], samplesToDecide: null }] }), far],
      60_000,
      opts,
    )?.benchmark,
    'far',
  );
  assert.equal(nextRound([state({ open: [] })], 60_000, opts), null);
  assert.equal(nextRound([state({ iterations: 12 })], 60_000, opts), null);
  assert.equal(nextRound([state({ roundMs: 90_000 })], 60_000, opts), null);
  assert.equal(stopReason(state({ open: [] }), 0, opts), 'decided');
  assert.equal(stopReason(state({ iterations: 12 }), 60_000, opts), 'iteration cap');
  assert.equal(stopReason(state({}), 0, opts), 'budget spent');
});

test('next round: an open gated decision goes first, however near the others', () => {
  const opts = { budgetMs: 600_000, maxIterations: 12, reserveMs: 0, firstLook: 5 };
  const gated = state({ benchmark: 'gated', need: 40, gated: true, roundMs: 20_000 });
  assert.equal(nextRound([state({ benchmark: 'other', need: 6 }), gated], 600_000, opts)?.benchmark, 'gated');
  // Once it cannot get another round (too dear for what is left), the others go on.
  assert.equal(nextRound([state({ benchmark: 'other', need: 6 }), gated], 10_000, opts)?.benchmark, 'other');
});

test('--budget durations', () => {
  assert.equal(parseDuration('15m'), 900_000);
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('900'), 900_000);
  assert.ok(Number.isNaN(parseDuration('5q')));
  assert.ok(Number.isNaN(parseDuration('')));
});
