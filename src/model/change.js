// A change between two medians, as every output reads it: the cost factor, its interval, and its outcome
// (regression, improvement, equivalent, inconclusive). One module that the CLI, report.md, report.html, `compare --json` readers and the
// site (which loads this very file, see src/site/build.js) all import, so a change is computed once.
// Import-free (no Node APIs): part of the results model (see ./README.md).
import { magnitude, pValue, shortPct, unsignedPct } from './numbers.js';

/**
 * A ratio of medians (candidate / baseline) with its 95% interval.
 * @typedef {{ ratio: number, low: number, high: number }} Ratio
 */

/**
 * How many times worse the candidate is, as a factor (2 = twice as bad, 0.5 = twice as good), for either
 * direction: the ratio of medians for a lower-is-better metric, its inverse for a higher-is-better one
 * (half the throughput = twice the time per unit of work = factor 2). Symmetric on a log scale, so the
 * charts draw it on a log axis and the readings never go below -100%.
 * @param {number | null} ratio candidate / baseline (null: none, as JSON writes NaN) @param {'higher' | 'lower'} better
 */
export const costFactor = (ratio, better) =>
  // A ratio read back from JSON is null where it was NaN (a zero median): no number, not -100%.
  typeof ratio !== 'number' ? NaN : better === 'lower' ? ratio : 1 / ratio;

/**
 * The change in cost as a fraction, + worse: `costFactor - 1` (half the throughput = +1, i.e. +100%).
 * This is the number every output prints for a comparison.
 * @param {number | null} ratio candidate / baseline @param {'higher' | 'lower'} better
 */
export const costChange = (ratio, better) => costFactor(ratio, better) - 1;

/**
 * The ratio's interval as a change towards worse in cost-factor terms (fractions, lower first).
 * @param {{ low: number, high: number }} ci @param {'higher' | 'lower'} better
 * @returns {[number, number]}
 */
export function worseInterval(ci, better) {
  const a = costChange(ci.low, better);
  const b = costChange(ci.high, better);
  return [Math.min(a, b), Math.max(a, b)];
}

/** Half the width of the worse interval, in percentage points (" ±4", " ±0.6"); '' when unknown. @param {Ratio} ci @param {'higher' | 'lower'} better */
export function plusMinus(ci, better) {
  const [lo, hi] = worseInterval(ci, better);
  const half = ((hi - lo) / 2) * 100;
  if (!Number.isFinite(half)) return '';
  return ` ±${magnitude(half, 1)}`;
}

/**
 * The four outcomes of a comparison, worst news first, one meaning in every output (docs/method.md, "Four
 * outcomes"): `regression` / `improvement`, a significant change (after the false-alarm control of the run's
 * reading, src/reading/) whose estimate reaches the practical threshold T; `equivalent`, proven within ±T
 * (the whole 95% interval of the change lies inside the band); `inconclusive`, neither: the data could not
 * tell, and the reading says the smallest change it could have seen. There is no "no change".
 */
export const OUTCOMES = Object.freeze(
  /** @type {const} */ (['regression', 'inconclusive', 'improvement', 'equivalent']),
);

/** @typedef {typeof OUTCOMES[number]} Outcome */

/**
 * How an outcome is coloured where it is shown (report.html's answer table, the site's): a regression as
 * worse, an improvement as better, any other (or none) plain. From the outcome itself, never its words.
 * @param {Outcome | null | undefined} outcome @returns {'worse' | 'better' | ''}
 */
export const outcomeTone = (outcome) =>
  outcome === 'regression' ? 'worse' : outcome === 'improvement' ? 'better' : '';

/**
 * The practical threshold T by benchmark family, a fraction of the cost (0.1 = 10%), where `--config` does
 * not set one. Why these: CPU and memory throughput inside a container is the same code on the same kernel,
 * so a 5% change there is already a real finding; start-up, disk, network, builds and a team's job move
 * by more than 5% from run to run on shared CI runners, and 10% is the size of change a CI engineer acts
 * on (a 60-s job getting 6 s slower).
 */
export const DEFAULT_THRESHOLD = 0.1;
export const FAMILY_THRESHOLDS = Object.freeze(
  /** @type {Record<string, number>} */ ({ sysbench: 0.05, 'stress-ng': 0.05, memory: 0.05 }),
);
/** @param {string} benchmark */
export const defaultThreshold = (benchmark) => FAMILY_THRESHOLDS[benchmark] ?? DEFAULT_THRESHOLD;

/**
 * The band of changes within ±T, in cost-change terms, symmetric on the log scale: a factor from 1/(1+T)
 * to 1+T (±10% is -9.1% to +10%).
 * @param {number} threshold @returns {[number, number]}
 */
export const equivalenceBand = (threshold) => [1 / (1 + threshold) - 1, threshold];

/**
 * What a within-run comparison needs to be read: its ratio and interval, direction and threshold; whether it
 * is a decision (`decision`: one of the run's questions, src/model/decisions.js, judged under the reading's
 * false-alarm control) or only described (`described`: every other metric, no outcome).
 * @typedef {{ ratio: Ratio, better: 'higher' | 'lower', significant: boolean, testable?: boolean,
 *   threshold?: number, detectable?: { change: number | null }, decision?: boolean, described?: boolean }} Readable
 */

/**
 * The one rule for a comparison's outcome (see OUTCOMES), read from the interval printed beside it, so that
 * no outcome can contradict it: wholly beyond +T is a regression, wholly beyond -T an improvement, wholly
 * inside ±T equivalent, anything else inconclusive. For a decision the interval is the one its test was
 * made at (the reading's level, src/reading/decide.js). Null for a described metric (no outcome: it is
 * outside the run's questions) and when the change is not a number.
 * Comparisons made before decisions existed (no `decision` flag: a history overview written by an older
 * version) keep the rule they were written with: significant and beyond T, or inside the band.
 * @param {Readable} c
 * @returns {Outcome | null}
 */
export function outcomeOf(c) {
  if (c.described) return null;
  const change = costChange(c.ratio.ratio, c.better);
  if (!Number.isFinite(change)) return null;
  const [bandLow, bandHigh] = equivalenceBand(c.threshold ?? DEFAULT_THRESHOLD);
  const [lo, hi] = worseInterval(c.ratio, c.better);
  if (c.decision) {
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'inconclusive';
    if (lo >= bandHigh) return 'regression';
    if (hi <= bandLow) return 'improvement';
    if (lo > bandLow && hi < bandHigh) return 'equivalent';
    return 'inconclusive';
  }
  if (c.significant && change >= bandHigh) return 'regression';
  if (c.significant && change <= bandLow) return 'improvement';
  if (c.testable !== false && lo > bandLow && hi < bandHigh) return 'equivalent';
  return 'inconclusive';
}

/** "10%", "5%", "2.5%". @param {number} x */
export const thresholdText = (x) => `${Number((x * 100).toFixed(1))}%`;

/**
 * What an inconclusive comparison could have seen: "sees ≥ 39%", or "too few" when no test was possible.
 * @param {Readable} c
 */
export function seesText(c) {
  const d = c.detectable?.change;
  return typeof d === 'number' && Number.isFinite(d) ? `sees ≥ ${unsignedPct(d)}` : 'too few';
}

/**
 * How a comparison reads, compact, as the change in cost (`costChange`, so + is worse): "+512% ▲ regression",
 * "-12% ▼ improvement", "+2.7% ±4 equivalent (±10%)", "+75% ±114 inconclusive (sees ≥ 39%)". ± is half the
 * width of the 95% interval in percentage points; "sees" is the smallest change these samples could show.
 * @param {Readable} c
 */
export function reading(c) {
  const outcome = outcomeOf(c);
  const change = costChange(c.ratio.ratio, c.better);
  // Outside the run's questions: its change and 95% interval, no outcome.
  if (c.described && Number.isFinite(change)) return `${shortPct(change)}${plusMinus(c.ratio, c.better)} described`;
  if (outcome === null) return '–';
  if (outcome === 'regression') return `${shortPct(change)} ▲ regression`;
  if (outcome === 'improvement') return `${shortPct(change)} ▼ improvement`;
  const pm = plusMinus(c.ratio, c.better);
  if (outcome === 'equivalent')
    return `${shortPct(change)}${pm} equivalent (±${thresholdText(c.threshold ?? DEFAULT_THRESHOLD)})`;
  return `${shortPct(change)}${pm} inconclusive (${seesText(c)})`;
}

/**
 * The numbers behind a reading: the ratio's interval, p and Cliff's delta ("[1.05, 1.92] p 0.032 δ 0.84").
 * @param {{ ratio: Ratio, p: number, cliffsDelta: number }} c
 */
export function details(c) {
  const ci = Number.isFinite(c.ratio.low) ? `[${c.ratio.low.toFixed(2)}, ${c.ratio.high.toFixed(2)}]` : '[–]';
  return `${ci} p ${pValue(c.p)} δ ${Number.isFinite(c.cliffsDelta) ? c.cliffsDelta.toFixed(2) : '–'}`;
}

/** The footnote that explains "(too few)" once per report. */
export const TOO_FEW_NOTE =
  '"inconclusive (too few)": a decision needs at least 2 positive samples a side for its interval (on log values); ' +
  'with fewer, or a zero among them, nothing can be shown: run more iterations.';
