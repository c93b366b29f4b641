// A results file at every bound at once (99 series of 10,000 samples, under the 1,000,000 a run may hold;
// every metric name at its longest): publish accepts it and writes every series whole, and compare judges
// every comparison, within the run and against the history; so is one with 10,000 samples on one side of
// every comparison and 5 on the other. Behaviour only: how long each takes is
// `npm run bench:bounds` (the 10-s target), not a unit test's business.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SERIES, SHAPES, atTheBounds } from '../../bench/bounds-file.js';
import { MAX_SAMPLES, publishRun } from '../../src/history/append.js';
import { openHistory } from '../../src/history/store.js';
import { compareWithinRun } from '../../src/results/within-run.js';
import { tmpDir } from '../history/helpers.js';

test('a results file at every bound at once is published whole and compared', { timeout: 300_000 }, async () => {
  const results = atTheBounds();
  const samples = results.cells.reduce((n, c) => n + c.metrics.reduce((m, s) => m + s.samples.length, 0), 0);
  assert.equal(samples, SERIES * MAX_SAMPLES);
  const runs = tmpDir('bounds-runs');
  const file = path.join(runs, 'results.json');
  writeFileSync(file, JSON.stringify(results));
  const dir = tmpDir('bounds-history');
  const r = await publishRun(dir, file);
  assert.equal(r.duplicate, false);
  const h = await openHistory(dir);
  const series = h.listSeries();
  assert.equal(series.length, SERIES);
  const points = await h.readSeries(series[0].key);
  assert.equal(points.length, 1);
  const comparisons = compareWithinRun(results);
  assert.equal(comparisons.length, Math.floor(SERIES / 2), 'every dind metric against docker');
  for (const c of comparisons) {
    const { ratio, low, high } = /** @type {any} */ (c).ratio;
    assert.ok(low < ratio && ratio < high, `${low} < ${ratio} < ${high}`);
    assert.ok(Math.abs(ratio - 1.05) < 0.01, 'the 5% difference the file was made with');
  }
});

test(
  '10,000 samples against 5, each way round: published whole and compared, every interval around its ratio',
  { timeout: 300_000 },
  async () => {
    for (const [docker, dind] of [SHAPES['docker 10,000, dind 5'], SHAPES['docker 5, dind 10,000']]) {
      const results = atTheBounds(docker, dind);
      const file = path.join(tmpDir('bounds-runs'), 'results.json');
      writeFileSync(file, JSON.stringify(results));
      const dir = tmpDir('bounds-history');
      assert.equal((await publishRun(dir, file)).duplicate, false);
      const h = await openHistory(dir);
      assert.equal(h.listSeries().length, SERIES);
      const comparisons = compareWithinRun(results);
      assert.equal(comparisons.length, Math.floor(SERIES / 2), 'every dind metric against docker');
      for (const c of comparisons) {
        const { ratio, low, high } = /** @type {any} */ (c).ratio;
        assert.ok(
          low <= ratio && ratio <= high && high / low < 2,
          `${docker} vs ${dind}: ${low} <= ${ratio} <= ${high}`,
        );
      }
    }
  },
);
