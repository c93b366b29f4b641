// A cell's record of one step: warm-up values kept apart from the samples, per metric, in step order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { record } from '../../src/run/cells.js';

test('record keeps warm-up values apart from the samples, per metric', () => {
  const cell = /** @type {any} */ ({ metrics: [] });
  const step = (/** @type {number} */ v) => [
    { metric: 'a', unit: 'ms', better: /** @type {const} */ ('lower'), value: v },
    { metric: 'b', unit: 'MB/s', better: /** @type {const} */ ('higher'), value: 10 * v },
  ];
  record(cell, step(1), true);
  record(cell, step(2), false);
  record(cell, step(3), false);
  assert.deepEqual(
    cell.metrics.map((/** @type {any} */ m) => [m.metric, m.unit, m.better, m.warmup, m.samples]),
    [
      ['a', 'ms', 'lower', [1], [2, 3]],
      ['b', 'MB/s', 'higher', [10], [20, 30]],
    ],
  );
});

test('record refuses a metric whose unit or direction changes between steps', () => {
  const cell = /** @type {any} */ ({ metrics: [] });
  record(cell, [{ metric: 'a', unit: 'ms', better: 'lower', value: 1 }], false);
  assert.throws(
    () => record(cell, [{ metric: 'a', unit: 's', better: 'lower', value: 1 }], false),
    /metric a changed from ms\/lower to s\/lower/,
  );
});
