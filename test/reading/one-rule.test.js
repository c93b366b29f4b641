// One rule, one interval (issue 45): over generated runs and every real results file the project keeps, no
// outcome contradicts the interval printed beside it. A decision's interval wholly beyond +T is a
// regression, wholly beyond -T an improvement, wholly inside ±T equivalent, anything else inconclusive;
// a described metric has no outcome at all.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { equivalenceBand, outcomeOf, reading, worseInterval } from '../../src/model/change.js';
import { readAb, readWithinRun } from '../../src/reading/index.js';
import { normalDeviate, seededRandom } from '../../src/stats/random.js';

const DIR = new URL('../fixtures/results/', import.meta.url).pathname;

/** @param {any} c */
function agrees(c) {
  if (c.described) return c.outcome === null && outcomeOf(c) === null;
  const [lo, hi] = worseInterval(c.ratio, c.better);
  const [bandLow, bandHigh] = equivalenceBand(c.threshold);
  const expected =
    !Number.isFinite(lo) || !Number.isFinite(hi)
      ? 'inconclusive'
      : lo >= bandHigh
        ? 'regression'
        : hi <= bandLow
          ? 'improvement'
          : lo > bandLow && hi < bandHigh
            ? 'equivalent'
            : 'inconclusive';
  // The outcome the reading gave, and the one every renderer recomputes from the printed interval.
  return c.outcome === expected && outcomeOf(c) === expected;
}

/** A run of docker and dind cells of lifecycle and sysbench, each side drawn around its own level. @param {() => number} random */
function generated(random) {
  const n = 2 + Math.floor(random() * 14);
  const side = (/** @type {number} */ level, /** @type {number} */ sd) =>
    Array.from({ length: n }, () => Math.exp(level + sd * normalDeviate(random)));
  const sd = [0.005, 0.03, 0.1, 0.4][Math.floor(random() * 4)];
  const shift = [0, 0.03, 0.09, 0.11, 0.5, -0.2][Math.floor(random() * 6)];
  const cell = (
    /** @type {string} */ env,
    /** @type {string} */ benchmark,
    /** @type {string} */ metric,
    /** @type {'higher' | 'lower'} */ better,
    /** @type {number} */ level,
  ) => ({
    benchmark,
    environment: env.split('@')[0],
    environmentKey: env,
    distro: 'debian',
    engine: env.includes('@') ? env.split('@')[1] : null,
    status: 'ok',
    metrics: [{ metric, unit: 'x', better, samples: side(level, sd), warmup: [] }],
  });
  // a metric outside the run's questions: described
  const withLatency = (/** @type {any} */ c) => ({
    ...c,
    metrics: [
      ...c.metrics,
      { metric: 'cpu.latency_p95_ms', unit: 'ms', better: 'lower', samples: side(1, sd), warmup: [] },
    ],
  });
  return {
    run: { looks: 1 + Math.floor(random() * 5) },
    cells: [
      cell('docker', 'lifecycle', 'startup.total_ms', 'lower', 6),
      cell('dind@20.10', 'lifecycle', 'startup.total_ms', 'lower', 6 + shift),
      cell('dind@26.1', 'lifecycle', 'startup.total_ms', 'lower', 6 + shift * 2),
      withLatency(cell('docker', 'sysbench', 'cpu.events_per_second', 'higher', 7)),
      withLatency(cell('dind@20.10', 'sysbench', 'cpu.events_per_second', 'higher', 7 - shift)),
    ],
  };
}

test('generated runs: every outcome is the one its printed interval gives, at every size and spread', () => {
  const random = seededRandom(45);
  const seen = new Set();
  for (let i = 0; i < 300; i++) {
    const r = /** @type {any} */ (generated(random));
    for (const c of [
      ...readWithinRun(r, { resamples: 200 }),
      ...readAb(r, 'dind@20.10', 'dind@26.1', { resamples: 200 }),
    ]) {
      assert.ok(agrees(c), `${c.benchmark} ${c.metric} ${c.candidate.env}: ${reading(c)} at level ${c.level}`);
      seen.add(c.outcome);
    }
  }
  // The generator reaches every outcome, and described metrics.
  for (const o of ['regression', 'improvement', 'equivalent', 'inconclusive', null])
    assert.ok(seen.has(o), `${o} not reached: ${[...seen].join(', ')}`);
});

test('every real results file the project keeps: no outcome contradicts its interval', () => {
  const files = [
    ...readdirSync(DIR).filter((f) => f.endsWith('.json')),
    ...readdirSync(`${DIR}engine-lines`).map((f) => `engine-lines/${f}`),
  ];
  let decisions = 0;
  for (const f of files) {
    const r = JSON.parse(readFileSync(DIR + f, 'utf8'));
    for (const c of readWithinRun(r, { resamples: 200 })) {
      assert.ok(agrees(c), `${f}: ${c.benchmark} ${c.metric} ${c.candidate.env}: ${reading(c)}`);
      if (c.decision) decisions++;
    }
  }
  assert.ok(decisions > 20, `${decisions} decisions`);
});
