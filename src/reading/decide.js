// A reading's comparisons judged together: the false-alarm control over all of them, then each one's
// outcome (../model/change.js outcomeOf) and, where it is inconclusive, about how many samples a side
// would decide it.
//
// Why Benjamini-Hochberg over the run's comparisons: a quick run judges about a hundred metrics, and at
// p < 0.05 each, five false "regressions" a run are expected where nothing changed. BH keeps the expected
// share of false findings among those flagged at or under FALSE_ALARM_RATE, which in a run where nothing
// changed is the chance of any false regression at all (bench/aa-gate.js measures it on a real A/A run).
// Bonferroni or Holm would control that too but, with 5 samples a side (smallest p 0.008), could never
// flag anything among a hundred metrics. Written here (ten lines) because no maintained npm package the
// project already uses has it.
import { DEFAULT_THRESHOLD, costFactor, outcomeOf } from '../model/change.js';

/** The rate of false regressions a reading allows over all the comparisons it judges. */
export const FALSE_ALARM_RATE = 0.05;
/** Sample counts above this are "more than 10,000": the runner, not the iterations, is the limit. */
const MAX_SAMPLES = 10_000;

/**
 * Benjamini-Hochberg adjusted p-values (q), in the order given.
 * @param {number[]} ps
 * @returns {number[]}
 */
export function benjaminiHochberg(ps) {
  const m = ps.length;
  const order = ps.map((p, i) => [Number.isFinite(p) ? p : 1, i]).sort((a, b) => a[0] - b[0]);
  const q = new Array(m);
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    running = Math.min(running, (order[k][0] * m) / (k + 1));
    q[order[k][1]] = running;
  }
  return q;
}

/**
 * @typedef {import('./pair.js').PairStats & {
 *   baseline: { n: number }, candidate: { n: number }, threshold: number,
 * }} Judgeable
 * @typedef {{ q: number, significant: boolean, outcome: import('../model/change.js').Outcome | null, samplesToDecide: number | null }} Judged
 */

/**
 * Each comparison's outcome, the run's false-alarm control applied over all of them.
 * @template {Judgeable} C
 * @param {C[]} comparisons
 * @returns {Array<C & Judged>}
 */
export function judgeAll(comparisons) {
  const qs = benjaminiHochberg(comparisons.map((c) => c.p));
  return comparisons.map((c, i) => {
    const significant = qs[i] < FALSE_ALARM_RATE && (c.ratio.low > 1 || c.ratio.high < 1);
    const judged = { ...c, q: qs[i], significant };
    const outcome = outcomeOf(judged);
    return { ...judged, outcome, samplesToDecide: outcome === 'inconclusive' ? samplesToDecide(judged) : null };
  });
}

/**
 * About how many samples a side would decide an inconclusive comparison, if its spread and estimate held:
 * the interval narrows as 1/sqrt(n), so it fits inside ±T when its half-width shrinks below the room
 * between the estimate and T, or excludes no change once it shrinks below the estimate (an estimate beyond
 * T). Null when more samples cannot (the estimate sits on T) or the interval is unknown.
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
  const room = centre < edge ? edge - centre : centre;
  if (!(room > 0)) return null;
  const needed = Math.ceil(n * (half / room) ** 2);
  return needed > MAX_SAMPLES ? null : Math.max(needed, n + 1, 5);
}
