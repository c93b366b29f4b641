// Median and quantiles come from simple-statistics; these wrappers only say what an empty input means here.
import { medianSorted, quantileSorted } from 'simple-statistics';

/** Median of the samples; NaN for none (a cell without samples has no median, never 0). @param {number[]} xs */
export function median(xs) {
  if (xs.length === 0) return NaN;
  // a typed array sorts numerically without a comparator, several times faster (verdicts take many medians)
  return medianSorted(/** @type {any} */ (new Float64Array(xs).sort()));
}

/** @param {number[]} sorted ascending */
export function medianOfSorted(sorted) {
  return sorted.length === 0 ? NaN : medianSorted(sorted);
}

/** @param {number[]} sorted ascending @param {number} p in [0, 1] */
export function quantileOfSorted(sorted, p) {
  return sorted.length === 0 ? NaN : quantileSorted(sorted, p);
}
