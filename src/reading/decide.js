// A reading's decisions judged together: the run's questions (each benchmark's decision metric for the
// pairs the run asks, src/model/decisions.js, plus what a gate names) form one family, and each gets its
// outcome from one interval (../stats/log-interval.js) at the level the family's false-alarm control gives
// it; the interval printed beside the outcome is that interval (../model/change.js outcomeOf reads it), so
// the two can never disagree.
//
// The control (docs/method.md, "Decisions"): FALSE_ALARM_RATE is spent over the family's m decisions and
// the K looks its sampling design allows (Bonferroni: each decision at each look gets FALSE_ALARM_RATE /
// (m K) on each side). A wrong decision needs its interval to miss the true change on the side it decides,
// so over the whole run, whatever the true changes and however many looks were taken, the chance of any
// wrong regression, improvement or equivalence is at most FALSE_ALARM_RATE. Why Bonferroni and not
// Benjamini-Hochberg (before): BH gives no interval to print beside an outcome, only an adjusted p-value,
// and with the family cut from about 260 metrics to about 10 decisions, the price of the simple bound is
// small; bench/eval/decisions.js measures what it costs in power and what the whole procedure's A/A shows.
import { DEFAULT_THRESHOLD, costFactor, outcomeOf } from '../model/change.js';
import { logRatioInterval } from '../stats/log-interval.js';
import { nominalAlphas } from '../stats/sequential.js';

/** The rate of wrong decisions a reading allows over all of its decisions and looks. */
export const FALSE_ALARM_RATE = 0.05;
/** Sample counts above this are "more than 10,000": the runner, not the iterations, is the limit. */
const MAX_SAMPLES = 10_000;

/**
 * Each decision's one-sided error at each look, and the two-sided level of the interval it is read from.
 * @param {number} decisions the family's size (at least 1) @param {number} looks the design's looks (at least 1)
 */
export function decisionLevel(decisions, looks) {
  const alpha = FALSE_ALARM_RATE / (Math.max(1, decisions) * Math.max(1, looks));
  return { alpha, level: 1 - 2 * alpha };
}

/**
 * How a decision's rate is spent over the looks of a sampling design whose look sizes are known (results
 * run.lookSizes): Pocock-type spending (src/stats/sequential.js). Why Pocock: a budgeted run (the quick
 * profile) reads most of its questions at its first look, because its budget is spent before a second;
 * Pocock-type spending reads every look of the quick design looser than Bonferroni over the looks (the
 * first about twice as loose), where O'Brien-Fleming-type spending, which decides more when every question
 * reaches the cap, reads the first look at about 1/500 of its share and left most quick runs' questions
 * open (docs/method.md, "False alarms over a run, and over its looks"; bench/eval/decisions.js).
 * @type {import('../stats/sequential.js').Design}
 */
export const DESIGN = 'pocock';

/**
 * Each look's one-sided alpha and two-sided level, for a family of `decisions` looked at `sizes` samples a
 * side: Bonferroni over the decisions (FALSE_ALARM_RATE / m each), spent over the looks by DESIGN.
 * @param {number} decisions the family's size @param {number[]} sizes the looks, samples a side, increasing
 * @returns {Array<{ n: number, alpha: number, level: number }>}
 */
export function lookLevels(decisions, sizes) {
  const alphas = nominalAlphas(sizes, FALSE_ALARM_RATE / Math.max(1, decisions), DESIGN);
  return sizes.map((n, k) => ({ n, alpha: alphas[k], level: 1 - 2 * alphas[k] }));
}

/**
 * The level a decision with n samples a side (the smaller side's) is read at: its look's; between two looks
 * (a run that stopped for its budget), the next look's, the one the design had planned for the samples it
 * was on its way to; past the last look, the last's.
 * @param {Array<{ n: number, level: number }>} levels lookLevels @param {number} n
 */
export const levelAt = (levels, n) => (levels.find((l) => l.n >= n) ?? levels[levels.length - 1]).level;

/**
 * @typedef {{ better: 'higher' | 'lower', threshold: number, samples: { baseline: number[], candidate: number[] } }} Decidable
 * @typedef {{
 *   ratio: { ratio: number, low: number, high: number }, level: number, significant: boolean, testable: boolean,
 *   decision: true, outcome: import('../model/change.js').Outcome, samplesToDecide: number | null,
 *   detectable: { change: number | null, why: string }, why: string | null,
 * }} Decided
 * why: why an inconclusive decision could not be read at all (too few samples, a value not positive), else null.
 */

/**
 * One decision: its interval at `level`, its outcome read from it, and, when inconclusive, about how many
 * samples a side would decide it and the smallest regression it could have shown.
 * @param {Decidable} c @param {number} level
 * @returns {Decided}
 */
export function decideOne(c, level) {
  const { baseline, candidate } = c.samples;
  const interval = logRatioInterval(baseline, candidate, level);
  if (!interval) {
    const why =
      Math.min(baseline.length, candidate.length) < 2
        ? `${Math.min(baseline.length, candidate.length)} sample(s) a side: a decision needs at least 2`
        : 'a value is zero or negative: the decision is read on log values';
    return {
      ratio: { ratio: NaN, low: NaN, high: NaN },
      level,
      significant: false,
      testable: false,
      decision: true,
      outcome: 'inconclusive',
      samplesToDecide: null,
      detectable: { change: null, why },
      why,
    };
  }
  const ratio = { ratio: interval.ratio, low: interval.low, high: interval.high };
  const readable = { ratio, better: c.better, threshold: c.threshold, decision: /** @type {const} */ (true) };
  const outcome = /** @type {import('../model/change.js').Outcome} */ (outcomeOf({ ...readable, significant: false }));
  const edge = Math.log(1 + (c.threshold ?? DEFAULT_THRESHOLD));
  const half = (Math.log(interval.high) - Math.log(interval.low)) / 2;
  return {
    ratio,
    level,
    significant: outcome === 'regression' || outcome === 'improvement',
    testable: true,
    decision: true,
    outcome,
    samplesToDecide:
      outcome === 'inconclusive'
        ? samplesToDecide({ ...readable, baseline: { n: baseline.length }, candidate: { n: candidate.length } })
        : null,
    // The smallest change it would have called a regression: beyond T by the interval's half-width.
    detectable: {
      change: Number.isFinite(half) ? Math.expm1(edge + half) : null,
      why: 'the smallest change beyond which this interval lies wholly',
    },
    why: null,
  };
}

/**
 * @typedef {{ ratio: { ratio: number, low: number, high: number }, better: 'higher' | 'lower', threshold?: number,
 *   baseline: { n: number }, candidate: { n: number } }} Judgeable
 */

/**
 * About how many samples a side would decide an inconclusive comparison, if its spread and estimate held:
 * the interval narrows as 1/sqrt(n), so it fits inside ±T when its half-width shrinks below the room
 * between the estimate and T, or lies wholly beyond T once it shrinks below the estimate's distance from
 * T. Null when more samples cannot (the estimate sits on T) or the interval is unknown.
 * @param {Judgeable} c
 */
export function samplesToDecide(c) {
  const n = Math.min(c.baseline.n, c.candidate.n);
  const lo = Math.log(costFactor(c.ratio.low, c.better));
  const hi = Math.log(costFactor(c.ratio.high, c.better));
  const half = Math.abs(hi - lo) / 2;
  const centre = Math.abs(Math.log(costFactor(c.ratio.ratio, c.better)));
  const edge = Math.log(1 + (c.threshold ?? DEFAULT_THRESHOLD));
  if (!Number.isFinite(half) || !Number.isFinite(centre) || half === 0) return null;
  const room = Math.abs(edge - centre);
  if (!(room > 0)) return null;
  const needed = Math.ceil(n * (half / room) ** 2);
  return needed > MAX_SAMPLES ? null : Math.max(needed, n + 1, 5);
}
