// Adaptive stopping (src/run/adaptive.js) under A/A: does sampling until the comparison can show 5% raise
// false alarms? One run of a noise model gives both sides (Docker and DinD from the same distribution,
// at the same run level, as interleaving makes them); samples are revealed a round at a time, from the
// quick profile's planned 5 up to its cap of 7 (and, as a stress test, up to 30), stopping as the run
// command does. Then:
//   - within the run: the reports' rule (Mann-Whitney p < 0.05 and the ratio's 95% bootstrap interval
//     excludes 1) counts as a false alarm; its level is 5% by design, so the target is <= 5%;
//   - against history: the Docker side, as the new run, judged by the verdict against 30 past runs of 20
//     samples; the target is the verdicts' <= 1%.
// The same models, stopped at a fixed number of samples, are the reference.
import { needOf } from '../../src/run/adaptive.js';
import { smallestMannWhitneyP } from '../../src/results/within-run.js';
import { mannWhitneyU, ratioOfMedians } from '../../src/stats/index.js';
import { DEFAULT_RULE, judge } from '../../src/stats/verdicts.js';
import { EVAL_STEPS } from './methods.js';

const MIN_CHANGE = 0.05;

/**
 * Samples of one run, revealed adaptively: the counts per side after stopping.
 * @param {number[]} docker @param {number[]} dind pools of `cap` samples each @param {number} start @param {number} cap
 */
export function adaptiveCount(docker, dind, start, cap) {
  let n = start;
  while (n < cap) {
    const cells = [
      {
        environment: 'docker',
        environmentKey: 'docker',
        distro: 'debian',
        metrics: [{ metric: 'm', samples: docker.slice(0, n) }],
      },
      {
        environment: 'dind',
        environmentKey: 'dind',
        distro: 'debian',
        metrics: [{ metric: 'm', samples: dind.slice(0, n) }],
      },
    ];
    if (needOf(cells, MIN_CHANGE, smallestMannWhitneyP) <= 1) break;
    n++;
  }
  return n;
}

/** The reports' within-run rule. @param {number[]} a @param {number[]} b */
function withinRunAlarm(a, b) {
  const { p } = mannWhitneyU(b, a);
  if (!(p < 0.05)) return false;
  const r = ratioOfMedians(a, b, { resamples: 500 });
  return r.low > 1 || r.high < 1;
}

/**
 * @param {import('./noise-models.js').NoiseModel} model @param {() => number} random @param {number} trials
 * @param {{ start: number, cap: number, pastRuns: number, pastSamples: number }} o
 *   start: the planned samples a side before adaptive sampling begins (the quick profile's iterations)
 */
export function adaptiveAA(model, random, trials, { start, cap, pastRuns, pastSamples }) {
  const counts = { withinAdaptive: 0, withinFixed: 0, historyAdaptive: 0, historyFixed: 0, samples: 0 };
  for (let t = 0; t < trials; t++) {
    const pool = model.run(random, 2 * cap);
    const docker = pool.filter((_, i) => i % 2 === 0);
    const dind = pool.filter((_, i) => i % 2 === 1);
    const n = adaptiveCount(docker, dind, start, cap);
    counts.samples += n;
    if (withinRunAlarm(docker.slice(0, n), dind.slice(0, n))) counts.withinAdaptive++;
    if (withinRunAlarm(docker, dind)) counts.withinFixed++;
    const past = Array.from({ length: pastRuns }, () => ({ samples: model.run(random, pastSamples) }));
    if (judge(past, { samples: docker.slice(0, n) }, model.better, DEFAULT_RULE, EVAL_STEPS).status === 'regression')
      counts.historyAdaptive++;
    if (judge(past, { samples: docker }, model.better, DEFAULT_RULE, EVAL_STEPS).status === 'regression')
      counts.historyFixed++;
  }
  return counts;
}
