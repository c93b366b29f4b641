// Comparisons inside one run: DinD vs Docker (the headline), Docker vs native, Alpine vs Debian.
// Each pair of cells is compared metric by metric from the raw samples: ratio of medians with a bootstrap
// interval, Mann-Whitney p-value, Cliff's delta. The runner interleaves environments, so within a run the
// samples of two environments share the machine's drift and can be compared directly.
import { readWithinRun } from '../reading/index.js';

// The reading of a comparison is the model's (../model/change.js) and the reading layer's (../reading/):
// re-exported for this layer's readers.
export { OUTCOMES, TOO_FEW_NOTE, costFactor, details, outcomeOf, reading, worseInterval } from '../model/change.js';
export { compareSampleSets, smallestMannWhitneyP, versusTitle } from '../reading/index.js';

/**
 * @typedef {import('../reading/index.js').Comparison} Comparison
 * @typedef {import('../reading/index.js').Side} Side
 */

/**
 * Every comparison a run supports, in a stable order, judged together (../reading/).
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {import('../reading/index.js').ReadOptions} [opts]
 * @returns {Comparison[]}
 */
export const compareWithinRun = (results, opts = {}) => readWithinRun(results, opts);

/** @param {Comparison[]} comparisons */
export const anyTooFew = (comparisons) =>
  comparisons.some((c) => c.outcome === 'inconclusive' && c.detectable.change === null);
