// A reference for every noise model (issue 21): what a threshold on one run's level could catch if it knew
// the model exactly, and so needed no history. It flags a run whose level is beyond the (1 - f) quantile of
// the clean runs' levels, so it raises exactly f false alarms per judged run, and catches a 10% worse run as
// often as the worse level passes that quantile. The levels tried: the run's median (what the peers see),
// its pseudo-median and the mean of its log samples (dind-bench's level, and the sharpest for log-normal
// data); the best of them counts. Every rule here sets its threshold from 12 past runs instead, pays for not
// knowing the model, and usually catches less at f. The reference is not a strict bound: a rule could use
// the samples another way, a threshold that varies can beat a fixed one where the levels' distribution is
// irregular, and within 4 runs a rule that pools runs (dind-bench's spans) can catch more than the same
// threshold run by run.
//
// Why it is computed: on a series where a 10% change is small against a run's noise, every rule catches
// little, and how much is set by the false alarms it spends there. A rule set once for every model spends
// them where its noise model is worst; this shows what those false alarms can buy on each model.
import { levelOf } from '../../src/stats/verdicts.js';
import { median } from '../../src/stats/index.js';
import { SEQUENCE, worseFactor } from './sequences.js';

/** @typedef {import('./noise-models.js').NoiseModel} NoiseModel */

/** A run's level on the log scale, each way the ceiling tries. @type {Record<string, (logs: number[]) => number>} */
export const LEVELS = {
  median: (logs) => median(logs),
  'pseudo-median': (logs) => levelOf(logs).level,
  'mean of logs': (logs) => logs.reduce((a, b) => a + b, 0) / logs.length,
};

/**
 * Each level's clean-run values for one model, signed so that worse is higher, sorted; and how far a run
 * 10% worse moves them (every level here is a location on the log scale, so all samples x 1.1 move it by
 * exactly log 1.1; 0.9 for a higher-is-better metric). A model with per-trial series (issue 21's quick-run
 * model) gets each series' own values: runs / (number of series) each, at least 2,000.
 * @param {NoiseModel & { forTrial?: (t: number) => NoiseModel }} model
 * @param {() => number} random @param {number} runs
 */
export function cleanLevels(model, random, runs) {
  const series = model.forTrial ? distinctSeries(model.forTrial) : [model];
  const perSeries = Math.max(Math.min(runs, 2000), Math.round(runs / series.length));
  const sign = model.better === 'lower' ? 1 : -1;
  const shift = Math.abs(Math.log(worseFactor(model.better)));
  const levels = series.map((m) => {
    /** @type {Record<string, Float64Array>} */
    const out = {};
    for (const name of Object.keys(LEVELS)) out[name] = new Float64Array(perSeries);
    for (let i = 0; i < perSeries; i++) {
      const logs = m.run(random, SEQUENCE.samples).map(Math.log);
      for (const [name, level] of Object.entries(LEVELS)) out[name][i] = sign * level(logs);
    }
    for (const name of Object.keys(LEVELS)) out[name].sort();
    return out;
  });
  return { levels, shift };
}

/** The distinct series of a per-trial model, in trial order. @param {(t: number) => NoiseModel} forTrial */
function distinctSeries(forTrial) {
  const out = [];
  for (let t = 0, m = forTrial(0); !out.includes(m); m = forTrial(++t)) out.push(m);
  return out;
}

/**
 * The known-model threshold at false alarms f per judged run: per level, the share of regressed runs beyond
 * the clean runs' (1 - f) quantile (each series of the model at f, the shares averaged), and the best level.
 * Within `judged` runs, the same threshold on each run: the runs of these models are independent, so it
 * catches 1 - (1 - p)^judged of them.
 * @param {ReturnType<typeof cleanLevels>} clean @param {number} f
 */
export function ceilingAt({ levels, shift }, f) {
  /** @type {Record<string, number>} */
  const first = {};
  for (const name of Object.keys(LEVELS)) {
    let sum = 0;
    for (const s of levels) sum += passing(s[name], f, shift);
    first[name] = sum / levels.length;
  }
  const [bestLevel, best] = Object.entries(first).reduce((a, x) => (x[1] > a[1] ? x : a));
  return { first, level: bestLevel, hitFirst: best, hitWithin: 1 - (1 - best) ** SEQUENCE.judged };
}

/**
 * Share of runs shifted by `shift` that pass the (1 - f) quantile of `sorted` (the clean values): the
 * threshold is the value with a share f of the clean runs above it (the k = floor(f n) largest), and a
 * clean value v passes once shifted when v + shift > threshold.
 * @param {Float64Array} sorted ascending @param {number} f @param {number} shift
 */
export function passing(sorted, f, shift) {
  const n = sorted.length;
  const k = Math.floor(f * n);
  const threshold = k > 0 ? sorted[n - k - 1] : sorted[n - 1];
  // the first index whose shifted value is above the threshold (binary search)
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] + shift > threshold) hi = mid;
    else lo = mid + 1;
  }
  return (n - lo) / n;
}
