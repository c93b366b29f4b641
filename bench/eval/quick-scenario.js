// Issue 15's scenario: histories resampled from a real quick run. Every series of a results fixture
// (test/fixtures/results/quick-4env-alpine-offline.json: 166 series of 3 samples each) gets 12 past runs
// and one new run of 10 samples, each sample drawn with replacement from the series' recorded samples
// and each run scaled by a log-normal between-run drift (sd 2%). Judged as is (A/A) and with every
// sample of the new run made 10% worse in the metric's bad direction.
import { normalDeviate } from '../../src/stats/index.js';

export const SCENARIO = Object.freeze({ pastRuns: 12, samples: 10, drift: 0.02, shift: 0.1 });

/**
 * @param {any} results a results document
 * @returns {Array<{ name: string, better: 'higher' | 'lower', samples: number[] }>}
 */
export function seriesOf(results) {
  return results.cells
    .filter((/** @type {any} */ c) => c.status === 'ok')
    .flatMap((/** @type {any} */ c) =>
      c.metrics.map((/** @type {any} */ m) => ({
        name: `${c.benchmark} ${m.metric} ${c.environmentKey}`,
        better: m.better,
        samples: m.samples,
      })),
    );
}

/**
 * One replication over every series: per detector, the series flagged when 10% worse and when unchanged.
 * @param {ReturnType<typeof seriesOf>} series
 * @param {Array<import('./methods.js').Detector>} detectors
 * @param {() => number} random
 */
export function replicate(series, detectors, random) {
  const flagged = detectors.map(() => ({ hits: 0, aa: 0 }));
  const run = (/** @type {number[]} */ xs) => {
    const level = Math.exp(SCENARIO.drift * normalDeviate(random));
    return Array.from({ length: SCENARIO.samples }, () => level * xs[Math.floor(random() * xs.length)]);
  };
  for (const s of series) {
    const past = Array.from({ length: SCENARIO.pastRuns }, () => run(s.samples));
    const now = run(s.samples);
    const worse = now.map((x) => (s.better === 'lower' ? x * (1 + SCENARIO.shift) : x * (1 - SCENARIO.shift)));
    for (const [di, d] of detectors.entries()) {
      if (d.detect(past, worse, s.better)) flagged[di].hits++;
      if (d.detect(past, now, s.better)) flagged[di].aa++;
    }
  }
  return flagged;
}
