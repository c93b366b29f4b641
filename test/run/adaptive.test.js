// Sampling until decided (src/run/adaptive.js): which decisions are open at a look, which question gets
// the next sample (the cheapest to decide), why one stops, the design's looks, and --budget's durations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cellStop,
  costToDecide,
  decisionsOf,
  isLook,
  looksOf,
  nextQuestion,
  questionStop,
} from '../../src/run/adaptive.js';
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
  const quiet = decisionsOf('lifecycle', lifecycle(5, 0.01, 1.2), { level });
  assert.deepEqual([quiet.open, quiet.decided], [[], 2]);
  // The decided ones are named, with the samples a side they were decided at (results run.questions).
  assert.deepEqual(
    quiet.settled.map((d) => [d.candidate, d.n]),
    [
      ['dind@20.10/debian', 5],
      ['dind-vfs@20.10/debian', 5],
    ],
  );
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

/**
 * An open question: `need` samples a side would decide it, `sampleMs` one more sample costs.
 * @param {Partial<import('../../src/run/adaptive.js').Question> & { need?: number | null }} q
 * @returns {import('../../src/run/adaptive.js').Question}
 */
const question = ({ need = 10, ...q }) => ({
  benchmark: 'b',
  metric: 'm',
  baseline: 'docker/debian',
  candidate: 'dind/debian',
  samplesToDecide: need,
  gated: false,
  n: 5,
  sampleMs: 1000,
  cells: ['docker/debian', 'dind/debian'],
  ...q,
});
const OPTS = { budgetMs: 600_000, maxIterations: 12, reserveMs: 0, firstLook: 5 };

test("next sample: the open question cheapest to decide, its samples still needed times a sample's cost", () => {
  const near = question({ benchmark: 'near', need: 7, sampleMs: 10_000 }); // 2 x 10 s = 20 s
  const far = question({ benchmark: 'far', need: 40, sampleMs: 1000 }); // 35 x 1 s = 35 s
  const cheapNear = question({ benchmark: 'cheap', need: 6, sampleMs: 1000 }); // 1 x 1 s
  assert.equal(costToDecide(near), 20_000);
  assert.equal(costToDecide(far), 35_000);
  assert.equal(nextQuestion([far, near], 60_000, OPTS)?.benchmark, 'near');
  assert.equal(nextQuestion([near, far, cheapNear], 60_000, OPTS)?.benchmark, 'cheap');
  // Per question, not per benchmark: a cheap question beside a dear one of the same benchmark is cheap.
  const dearSide = question({ candidate: 'dind-vfs/debian', need: 8, sampleMs: 9000 });
  const cheapSide = question({ candidate: 'dind/debian', need: 8, sampleMs: 2000 });
  assert.equal(nextQuestion([dearSide, cheapSide], 60_000, OPTS), cheapSide);
  // A question more samples cannot decide comes last, but before stopping while the budget lasts.
  const never = question({ benchmark: 'never', need: null });
  assert.equal(nextQuestion([never, far], 60_000, OPTS)?.benchmark, 'far');
  assert.equal(nextQuestion([never], 60_000, OPTS)?.benchmark, 'never');
  // Ties: the earlier in plan order.
  assert.equal(
    nextQuestion([question({ benchmark: 'first' }), question({ benchmark: 'second' })], 60_000, OPTS)?.benchmark,
    'first',
  );
});

test('next sample: never a decided question, none at the cap, none whose next sample the budget cannot pay', () => {
  // Only open questions are given: with none open, nothing more is sampled.
  assert.equal(nextQuestion([], 60_000, OPTS), null);
  assert.equal(nextQuestion([question({ n: 12 })], 60_000, OPTS), null);
  assert.equal(nextQuestion([question({ sampleMs: 90_000 })], 60_000, OPTS), null);
  assert.equal(nextQuestion([question({ cells: [], sampleMs: Infinity })], 60_000, OPTS), null);
  // The one that fits goes on when the cheaper one does not.
  const dear = question({ benchmark: 'dear', need: 6, sampleMs: 50_000 });
  const fits = question({ benchmark: 'fits', need: 100, sampleMs: 1000 });
  assert.equal(nextQuestion([dear, fits], 60_000, OPTS)?.benchmark, 'dear');
  assert.equal(nextQuestion([dear, fits], 40_000, OPTS)?.benchmark, 'fits');
  assert.equal(questionStop(null, OPTS), 'decided');
  assert.equal(questionStop(question({ n: 12 }), OPTS), 'iteration cap');
  assert.equal(questionStop(question({}), OPTS), 'budget spent');
  assert.equal(cellStop([]), 'decided', 'a cell in no question (native) has nothing open');
  assert.equal(cellStop(['decided', 'iteration cap']), 'iteration cap');
  assert.equal(cellStop(['iteration cap', 'budget spent', 'decided']), 'budget spent');
});

test('next sample: an open gated question goes first, however cheap the others', () => {
  const gated = question({ benchmark: 'gated', need: 40, gated: true, sampleMs: 20_000 });
  assert.equal(nextQuestion([question({ benchmark: 'other', need: 6 }), gated], 600_000, OPTS)?.benchmark, 'gated');
  // Once it cannot take another sample (too dear for what is left, or capped), the others go on.
  assert.equal(nextQuestion([question({ benchmark: 'other', need: 6 }), gated], 10_000, OPTS)?.benchmark, 'other');
  const capped = { ...gated, n: 12 };
  assert.equal(nextQuestion([question({ benchmark: 'other', need: 6 }), capped], 600_000, OPTS)?.benchmark, 'other');
});

test('--budget durations', () => {
  assert.equal(parseDuration('15m'), 900_000);
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('900'), 900_000);
  assert.ok(Number.isNaN(parseDuration('5q')));
  assert.ok(Number.isNaN(parseDuration('')));
});
