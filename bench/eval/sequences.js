// Issue 21's scenario: multi-run sequences, judged one run at a time as a published history grows.
// Every trial of a noise model makes 12 past runs of 10 samples, then 4 more runs twice: as they came
// (clean) and with every sample made 10% worse in the metric's bad direction (the same draws, so the two
// are paired). Each of the 4 is judged as the newest run in turn, against the 12 past runs plus the ones
// judged before it, as a published run would be appended whatever its verdict: a missed regressed run
// widens the history's spread and moves its level, which can hide the next ones. Every rule sees the same
// runs; dind-bench sees each run's samples, the peers (bench/eval/peers.js) each run's median.
//
// Reported per rule: false alarms on the first clean run and within the 4 clean runs; detection on the
// first regressed run and within the 4; and, for ROC-style figures, detection when each rule's threshold
// is calibrated on this model's clean runs to 0.1%, 0.5% and 1% false alarms per judged run.
import { median, normalDeviate } from '../../src/stats/index.js';

export const SEQUENCE = Object.freeze({ pastRuns: 12, judged: 4, samples: 10, shift: 0.1, drift: 0.02 });
/** False-alarm rates per judged run at which each rule's threshold is calibrated. */
export const TARGETS = Object.freeze([0.001, 0.005, 0.01]);

/**
 * @typedef {import('./noise-models.js').NoiseModel} NoiseModel
 * @typedef {{ better: 'higher' | 'lower', past: number[][], clean: number[][], worse: number[][] }} Sequence
 * @typedef {{
 *   name: string, params: number[], defaultParam: number, looser: 'higher' | 'lower',
 *   alarms: (past: number[][], judged: number[][], better: 'higher' | 'lower', params: number[]) => boolean[][],
 * }} SequenceRule
 * `alarms` answers, per parameter, per judged run (judged[j] with past + judged[0..j-1] before it): is it
 * flagged as a regression? `looser` says which way the parameter makes the rule fire more often.
 */

/**
 * Issue 21's model: the 115 series of a real quick run (test/fixtures/results/quick-debian.json, 5 samples
 * each, positive), each with log-normal within-run noise at the series' own spread (sd of its log samples,
 * capped to 1-20%), and a 2% log-normal drift per run (shared by a run's metrics, so per series simply a
 * between-run factor). Trial t uses series t mod 115.
 * @param {Array<{ name: string, better: 'higher' | 'lower', samples: number[] }>} series
 * @returns {NoiseModel & { forTrial: (t: number) => NoiseModel }}
 */
export function issueModel(series) {
  const usable = series.filter((s) => s.samples.length >= 2 && s.samples.every((x) => x > 0));
  const models = usable.map((s) => {
    const logs = s.samples.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (logs.length - 1));
    const within = Math.min(0.2, Math.max(0.01, sd));
    const level = Math.exp(mean);
    return {
      name: s.name,
      description: `within-run sd ${(within * 100).toFixed(1)}%`,
      better: s.better,
      run: (/** @type {() => number} */ random, /** @type {number} */ n) => {
        const runLevel = level * Math.exp(SEQUENCE.drift * normalDeviate(random));
        return Array.from({ length: n }, () => runLevel * Math.exp(within * normalDeviate(random)));
      },
    };
  });
  return {
    name: `quick-run series (issue 21)`,
    description: `the ${models.length} series of quick-debian.json: log-normal at each series' own spread (1-20%), 2% drift per run`,
    better: 'lower',
    run: models[0].run,
    forTrial: (t) => models[t % models.length],
  };
}

/**
 * One trial's runs.
 * @param {NoiseModel} model @param {() => number} random
 * @returns {Sequence}
 */
export function makeSequence(model, random) {
  const { pastRuns, judged, samples } = SEQUENCE;
  const past = Array.from({ length: pastRuns }, () => model.run(random, samples));
  const clean = Array.from({ length: judged }, () => model.run(random, samples));
  const factor = worseFactor(model.better);
  const worse = clean.map((run) => run.map((x) => x * factor));
  return { better: model.better, past, clean, worse };
}

/** What every sample of a regressed run is multiplied by: SEQUENCE.shift worse in the metric's bad direction. */
export const worseFactor = (/** @type {'higher' | 'lower'} */ better) =>
  better === 'lower' ? 1 + SEQUENCE.shift : 1 - SEQUENCE.shift;

/** Run medians of a sequence's runs (what the peers see). @param {number[][]} runs */
export const mediansOf = (runs) => runs.map((r) => median(r));

/**
 * Per rule, per parameter: one byte per trial, bit j set when judged run j was flagged, for the clean and
 * the worse runs of every sequence (compact: a rule's sweep has up to a few hundred parameters).
 * @param {Sequence[]} sequences @param {SequenceRule} rule
 * @returns {{ clean: Uint8Array[], worse: Uint8Array[] }}
 */
export function evaluateRule(sequences, rule) {
  const clean = rule.params.map(() => new Uint8Array(sequences.length));
  const worse = rule.params.map(() => new Uint8Array(sequences.length));
  for (const [t, s] of sequences.entries()) {
    const c = rule.alarms(s.past, s.clean, s.better, rule.params);
    const w = rule.alarms(s.past, s.worse, s.better, rule.params);
    for (const pi of rule.params.keys()) {
      clean[pi][t] = bits(c[pi]);
      worse[pi][t] = bits(w[pi]);
    }
  }
  return { clean, worse };
}

/** @param {boolean[]} alarms per judged run @returns {number} */
export const bits = (alarms) => alarms.reduce((a, x, j) => (x ? a | (1 << j) : a), 0);

/** @param {number} x */
const popcount = (x) => {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
};

/**
 * The headline rates for one parameter's alarms (bit masks per trial, bit j for judged run j).
 * @param {Uint8Array} clean @param {Uint8Array} worse
 */
export function rates(clean, worse) {
  const n = clean.length;
  let falseFirst = 0;
  let falseWithin = 0;
  let falseRuns = 0;
  let hitFirst = 0;
  let hitWithin = 0;
  for (let t = 0; t < n; t++) {
    falseFirst += clean[t] & 1;
    falseWithin += clean[t] ? 1 : 0;
    falseRuns += popcount(clean[t]);
    hitFirst += worse[t] & 1;
    hitWithin += worse[t] ? 1 : 0;
  }
  return {
    falseFirst: falseFirst / n,
    falseWithin: falseWithin / n,
    falsePerRun: falseRuns / (n * SEQUENCE.judged),
    hitFirst: hitFirst / n,
    hitWithin: hitWithin / n,
  };
}

/**
 * Calibration: the parameter that fires most often while its false alarms per judged run stay <= target
 * (on these clean runs: an oracle that knows the model), and the detection it then gets: oneSetting over
 * this one model. Null when no parameter of the rule's grid stays under the target.
 * @param {SequenceRule} rule @param {{ clean: Uint8Array[], worse: Uint8Array[] }} result @param {number} target
 */
export function calibrated(rule, result, target) {
  const setting = oneSetting(rule, [result], target);
  return setting && { param: setting.param, ...rates(result.clean[setting.index], result.worse[setting.index]) };
}

/**
 * A rule's one setting for every model: the loosest of its sweep whose false alarms per judged run stay
 * <= target on each model's clean runs. A real rule is configured once, before it sees a series, so this
 * is what "at <= 1% false alarms on every noise model" means for a rule (calibrating per model would let
 * it know each model's noise, which no rule does). Null when no setting of its sweep stays under.
 * @param {SequenceRule} rule @param {Array<{ clean: Uint8Array[], worse: Uint8Array[] }>} perModel
 * @param {number} target
 */
export function oneSetting(rule, perModel, target) {
  let best = -1;
  for (const [pi, param] of rule.params.entries()) {
    const under = perModel.every((res) => rates(res.clean[pi], res.worse[pi]).falsePerRun <= target + 1e-12);
    if (!under) continue;
    const looser = best < 0 || (rule.looser === 'higher' ? param > rule.params[best] : param < rule.params[best]);
    if (looser) best = pi;
  }
  return best < 0 ? null : { param: rule.params[best], index: best };
}

/**
 * Two rules on the same regressed runs (paired: trial t of both is the same sequence; the first n trials of
 * the shorter): the difference a - b in detection on the first regressed run and within the judged runs,
 * each with the half-width of its 95% interval (normal approximation of the mean of paired differences).
 * A difference whose interval holds 0 is within what this many trials can tell apart.
 * @param {Uint8Array} a @param {Uint8Array} b bit masks per trial (bit j: judged run j flagged)
 */
export function pairedDifference(a, b) {
  const n = Math.min(a.length, b.length);
  const first = { sum: 0, squares: 0 };
  const within = { sum: 0, squares: 0 };
  for (let t = 0; t < n; t++) {
    const d1 = (a[t] & 1) - (b[t] & 1);
    const d2 = (a[t] ? 1 : 0) - (b[t] ? 1 : 0);
    first.sum += d1;
    first.squares += d1 * d1;
    within.sum += d2;
    within.squares += d2 * d2;
  }
  const interval = (/** @type {{ sum: number, squares: number }} */ x) => {
    const diff = x.sum / n;
    const variance = n > 1 ? (x.squares - n * diff * diff) / (n - 1) : 0;
    return { diff, half: 1.96 * Math.sqrt(Math.max(0, variance) / n) };
  };
  return { n, first: interval(first), within: interval(within) };
}
