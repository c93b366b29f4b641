// A change between two medians, as every output reads it: the cost factor, its interval, and the
// within-run word. One module that the CLI, report.md, report.html, `compare --json` readers and the
// site (which loads this very file, see src/site/build.js) all import, so a change is computed once.
// Import-free (no Node APIs): part of the results model (see ./README.md).
import { magnitude, shortPct } from './numbers.js';

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

/** The words a within-run comparison reads as (see reading). */
export const WITHIN_RUN_WORDS = Object.freeze(/** @type {const} */ (['worse', 'better', 'no diff', 'too few']));

/**
 * What a within-run comparison needs to be read: its ratio, direction and test outcome.
 * @typedef {{ ratio: Ratio, better: 'higher' | 'lower', significant: boolean, testable?: boolean }} Readable
 */

/**
 * The one rule for a comparison's word: "worse" or "better" when the difference is significant, else "no
 * diff" when a test could have found one and did not, "too few" when no test could; null when the change
 * is not a number. `compare` prints it (reading) and `publish` writes it into the overview the site shows.
 * @param {Readable} c
 * @returns {typeof WITHIN_RUN_WORDS[number] | null}
 */
export function withinRunWord(c) {
  const change = costChange(c.ratio.ratio, c.better);
  if (!Number.isFinite(change)) return null;
  if (c.significant) return change > 0 ? 'worse' : 'better';
  return c.testable === false ? 'too few' : 'no diff';
}

/**
 * How a comparison reads, compact, as the change in cost (`costChange`, so + is worse): "+512% ▲ worse" and
 * "-12% ▼ better" when the difference is significant (p < 0.05 and the ratio's interval excludes 1),
 * "+2.7% ±4 (no diff)" when a test could have found one and did not, "+2.7% ±4 (too few)" when no test could.
 * ± is half the width of the 95% interval in percentage points.
 * @param {Readable} c
 */
export function reading(c) {
  const word = withinRunWord(c);
  if (word === null) return '–';
  const change = costChange(c.ratio.ratio, c.better);
  if (word === 'worse' || word === 'better') return `${shortPct(change)} ${word === 'worse' ? '▲ worse' : '▼ better'}`;
  return `${shortPct(change)}${plusMinus(c.ratio, c.better)} (${word})`;
}

/** The footnote that explains "(too few)" once per report. */
export const TOO_FEW_NOTE =
  '"(too few)": with so few samples a side (3 vs 3 or fewer) the exact Mann-Whitney test cannot go below ' +
  'p = 0.1, so no difference can be shown: read the interval (±), or run with --iterations 5 or more.';
