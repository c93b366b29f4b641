// A results file at the bounds `publish` accepts: 99 series of 10,000 samples (990,000 samples, under the
// 1,000,000 a run may hold), every name at its longest, from the quick fixture; or one of its other SHAPES,
// where one side of every comparison has 10,000 samples and the other 5 (the bootstrap of a ratio of medians
// then resamples one large side against one small: issue 37). For bench/bounds.js (timed) and
// test/hostile/bounds.test.js (behaviour only).
import { readFileSync } from 'node:fs';
import { MAX_RUN_SAMPLES, MAX_SAMPLES } from '../src/history/append.js';
import { validateResults } from '../src/results/schema.js';
import { normalDeviate, seededRandom } from '../src/stats/index.js';

const FIXTURE = new URL('../test/fixtures/results/quick-debian.json', import.meta.url).pathname;
/** 99: every series at its own bound, the run under its own. */
export const SERIES = Math.floor(MAX_RUN_SAMPLES / MAX_SAMPLES) - 1;

/** Samples a series of the docker cell and of the dind cell has, in each shape. */
export const SHAPES = /** @type {const} */ ({
  symmetric: [MAX_SAMPLES, MAX_SAMPLES],
  'docker 10,000, dind 5': [MAX_SAMPLES, 5],
  'docker 5, dind 10,000': [5, MAX_SAMPLES],
});

/**
 * Two cells (docker, dind) of one benchmark, SERIES metrics between them, each at MAX_SAMPLES samples
 * (or `dind` samples in the dind cell's).
 * @param {number} [samples] per series of the docker cell (fewer for a quick check)
 * @param {number} [dind] per series of the dind cell (default: as many)
 */
export function atTheBounds(samples = MAX_SAMPLES, dind = samples) {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const random = seededRandom(7);
  const cells = doc.cells.filter((/** @type {any} */ c) => c.benchmark === 'sysbench' && c.environmentKey !== 'native');
  cells.forEach((/** @type {any} */ cell, /** @type {number} */ side) => {
    const count = side === 0 ? Math.ceil(SERIES / 2) : Math.floor(SERIES / 2);
    cell.metrics = Array.from({ length: count }, (_, i) => ({
      // the longest metric name a results file may hold (100 characters: the schema's seriesName)
      metric: `bounds.m${String(i).padStart(2, '0')}_ms`.padEnd(100, 'x'),
      unit: 'ms',
      better: 'lower',
      samples: Array.from(
        { length: side === 0 ? samples : dind },
        () => Math.round(100 * (1 + side * 0.05) * Math.exp(0.1 * normalDeviate(random)) * 1000) / 1000,
      ),
      warmup: [],
    }));
    delete cell.timeseries;
  });
  doc.cells = cells;
  doc.run.id = `bounds-${process.pid}`;
  return validateResults(doc, 'the bounds file');
}
