// Sampling until decided (src/run/adaptive.js) under A/A: does looking at a decision again after each look
// of the design buy wrong decisions? One run of a noise model gives both sides (Docker and DinD from the same
// distribution, at the same run level, as interleaving makes them); samples are revealed a look at a time,
// from the quick profile's planned 5 up to its cap (and, as a stress test, up to 30), stopping as the run
// does: when the decision is decided. Then:
//   - within the run: a regression or an improvement where nothing changed is a wrong decision; the
//     reading's level (src/reading/decide.js) is set for one decision looked at every look of the design, so
//     the target is <= 5%;
//   - against history: the Docker side, as the new run, judged by the verdict against 30 past runs of 20
//     samples; the target is the verdicts' <= 1%.
// The same models, stopped at a fixed number of samples (the cap), are the reference.
import { looksUpTo } from '../../src/model/decisions.js';
import { decideOne, decisionLevel } from '../../src/reading/decide.js';
import { DEFAULT_RULE, judge } from '../../src/stats/verdicts.js';
import { EVAL_STEPS } from './methods.js';

const THRESHOLD = 0.05;

/** @param {number} start @param {number} cap */
const levelOf = (start, cap) => decisionLevel(1, looksUpTo(start, cap).length).level;

/** The decision at n a side. @param {number[]} a @param {number[]} b @param {number} level */
const outcomeAt = (a, b, level) =>
  decideOne({ better: 'lower', threshold: THRESHOLD, samples: { baseline: a, candidate: b } }, level).outcome;

/**
 * Samples of one run, revealed at the design's looks: the count per side when the decision was made (or the
 * cap).
 * @param {number[]} docker @param {number[]} dind pools of `cap` samples each @param {number} start @param {number} cap
 */
export function adaptiveCount(docker, dind, start, cap) {
  const level = levelOf(start, cap);
  for (const n of looksUpTo(start, cap))
    if (outcomeAt(docker.slice(0, n), dind.slice(0, n), level) !== 'inconclusive') return n;
  return cap;
}

/** A wrong decision where nothing changed. @param {number[]} a @param {number[]} b @param {number} level */
function withinRunAlarm(a, b, level) {
  const o = outcomeAt(a, b, level);
  return o === 'regression' || o === 'improvement';
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
    const level = levelOf(start, cap);
    counts.samples += n;
    if (withinRunAlarm(docker.slice(0, n), dind.slice(0, n), level)) counts.withinAdaptive++;
    if (withinRunAlarm(docker, dind, decisionLevel(1, 1).level)) counts.withinFixed++;
    const past = Array.from({ length: pastRuns }, () => ({ samples: model.run(random, pastSamples) }));
    if (judge(past, { samples: docker.slice(0, n) }, model.better, DEFAULT_RULE, EVAL_STEPS).status === 'regression')
      counts.historyAdaptive++;
    if (judge(past, { samples: docker }, model.better, DEFAULT_RULE, EVAL_STEPS).status === 'regression')
      counts.historyFixed++;
  }
  return counts;
}
