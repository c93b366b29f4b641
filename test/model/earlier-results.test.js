// The start-up decided without its image: what lifecycle records (src/engine/startup.js) and what an earlier
// results file is read as (src/model/earlier-results.js) are the same number.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timelineMetrics, withoutImageMs } from '../../src/engine/startup.js';
import { withStartupWithoutImage } from '../../src/model/earlier-results.js';

/** @param {Record<string, number>} phases @param {number} total */
const timeline = (phases, total) => ({
  phases: Object.entries(phases).map(([phase, ms]) => ({ phase, ms })),
  sum_ms: 0,
  total_ms: total,
  missing: [],
  clamped: [],
});

test('the start-up without its image is the total less the image_load phase, and the total where there is none', () => {
  const dind = timeline({ outer_start: 300, image_load: 4300, first_start: 200 }, 4900);
  assert.equal(withoutImageMs(dind), 600);
  assert.equal(withoutImageMs(timeline({ first_create: 60, first_start: 110 }, 175)), 175);
  const metrics = timelineMetrics(dind, 'startup');
  assert.equal(metrics.find((m) => m.metric === 'startup.without_image_ms')?.value, 600);
  assert.equal(metrics.find((m) => m.metric === 'startup.total_ms')?.value, 4900);
  // A TLS start to /_ping has no image: no second copy of its total under another name.
  assert.ok(!timelineMetrics(dind, 'startup_tls').some((m) => m.metric.endsWith('without_image_ms')));
});

/** @param {string} benchmark @param {Record<string, number[]>} metrics @returns {any} */
const cell = (benchmark, metrics) => ({
  benchmark,
  status: 'ok',
  metrics: Object.entries(metrics).map(([metric, samples]) => ({
    metric,
    unit: 'ms',
    better: 'lower',
    samples,
    warmup: [1],
  })),
});

test('an earlier lifecycle cell gets the metric from the same iterations; anything else is read as it is', () => {
  const earlier = cell('lifecycle', { 'startup.total_ms': [4900, 5200], 'startup.image_load_ms': [4300, 4500] });
  const read = withStartupWithoutImage(earlier);
  const derived = read.metrics.find((m) => m.metric === 'startup.without_image_ms');
  assert.deepEqual(derived?.samples, [600, 700]);
  assert.deepEqual(derived?.warmup, [], 'no warm-up is made up');
  assert.equal(earlier.metrics.length, 2, 'the file read is not changed');
  // Docker's cell: no image phase, the total itself.
  const docker = withStartupWithoutImage(cell('lifecycle', { 'startup.total_ms': [170, 180] }));
  assert.deepEqual(docker.metrics.find((m) => m.metric === 'startup.without_image_ms')?.samples, [170, 180]);
  // Samples that do not pair up, a cell that has it, another benchmark: as they are.
  const uneven = cell('lifecycle', { 'startup.total_ms': [4900, 5200], 'startup.image_load_ms': [4300] });
  assert.equal(withStartupWithoutImage(uneven), uneven);
  const current = cell('lifecycle', { 'startup.total_ms': [4900], 'startup.without_image_ms': [650] });
  assert.equal(withStartupWithoutImage(current), current);
  const other = cell('sysbench', { 'startup.total_ms': [1] });
  assert.equal(withStartupWithoutImage(other), other);
});
