// A series against its own history, in the reading's words. The test is the verdict rule of
// ../stats/verdicts.js (judge); what it could not flag becomes `equivalent` only where the series could
// have seen the practical threshold T (its detectable change at most T, and this run's change within ±T),
// else `inconclusive`, with what it could have seen ("sees ≥ 493%"). There is no "no change".
import { DEFAULT_THRESHOLD, equivalenceBand } from '../model/change.js';
import { historyDetectable } from '../stats/detectable.js';
import { judge } from '../stats/verdicts.js';

/**
 * Every status a verdict against history can have, worst news first: the four outcomes, and the two that
 * are not yet a test ('insufficient data': too few samples or earlier runs; 'baseline': the first run).
 * A gate counts the last two as inconclusive.
 */
export const HISTORY_STATUSES = Object.freeze(
  /** @type {const} */ (['regression', 'inconclusive', 'insufficient data', 'baseline', 'improvement', 'equivalent']),
);

/**
 * @typedef {Omit<import('../stats/verdicts.js').Verdict, 'status'> & {
 *   status: typeof HISTORY_STATUSES[number], threshold: number,
 *   detectable: import('../stats/detectable.js').Detectable,
 * }} HistoryVerdict
 */

/**
 * @param {import('../stats/verdicts.js').Point[]} past the series' earlier runs, oldest first
 * @param {import('../stats/verdicts.js').Point} candidate this run
 * @param {'higher' | 'lower'} better
 * @param {import('../stats/verdicts.js').Rule} rule
 * @param {number} [threshold] T, a fraction
 * @returns {HistoryVerdict}
 */
export function judgeSeries(past, candidate, better, rule, threshold = DEFAULT_THRESHOLD) {
  const v = judge(past, candidate, better, rule);
  const detectable = historyDetectable(past, candidate.samples, rule);
  if (v.status !== 'no change') return { ...v, status: v.status, threshold, detectable };
  const [low, high] = equivalenceBand(threshold);
  // The Engine change, when there is one, stays the reason's last words (as judge() writes it).
  const tail = v.engineChange ? `; ${v.engineChange}` : '';
  const head = tail && v.reason.endsWith(tail) ? v.reason.slice(0, -tail.length) : v.reason;
  const sees = detectable.change;
  const within = v.change !== null && v.change > low && v.change < high;
  if (sees !== null && sees <= threshold && within)
    return {
      ...v,
      status: 'equivalent',
      threshold,
      detectable,
      reason: `${head}; equivalent: within ±${pct(threshold)}, and this series sees changes ≥ ${pct(sees)}${tail}`,
    };
  const why =
    sees === null
      ? `this series cannot yet say what it could see (${detectable.why})`
      : !within
        ? `the change is beyond ±${pct(threshold)} but not significant`
        : `this series sees only changes ≥ ${pct(sees)}, more than ±${pct(threshold)}`;
  return { ...v, status: 'inconclusive', threshold, detectable, reason: `${head}; inconclusive: ${why}${tail}` };
}

/** "10%", "493%", "23,533%". @param {number} x */
const pct = (x) =>
  `${Math.round(x * 1000) / 10 >= 100 ? Math.round(x * 100).toLocaleString('en') : Number((x * 100).toFixed(1))}%`;

/**
 * A status as the gate counts it: the four outcomes, with 'insufficient data' and 'baseline' inconclusive.
 * @param {typeof HISTORY_STATUSES[number]} status
 * @returns {import('../model/change.js').Outcome}
 */
export const outcomeOfStatus = (status) =>
  status === 'insufficient data' || status === 'baseline' ? 'inconclusive' : status;
