// Ablation of the verdict: the steps of src/stats/verdicts.js's rule, with one removed at a time, so the
// evaluation shows where the verdict gives up power relative to the practical limit (and what each step
// buys in false alarms). The full rule here must decide exactly as judge() does; eval-detection checks that.
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { median } from '../../src/stats/index.js';
import { DEFAULT_RULE, medianStandardError, predictionScale, typicalMedianError } from '../../src/stats/verdicts.js';

/**
 * Far past medians set aside as the verdict does (beyond 5 robust sd, at most a tenth of them).
 * @param {number[]} xs
 */
function withoutFarOutliers(xs) {
  const center = median(xs);
  const mad = 1.4826 * median(xs.map((x) => Math.abs(x - center)));
  if (!(mad > 0)) return xs;
  const near = xs.filter((x) => Math.abs(x - center) <= 5 * mad);
  return xs.length - near.length <= Math.floor(xs.length / 10) ? near : xs;
}

/**
 * @param {string} name
 * @param {{ floor?: boolean, outliers?: boolean, minChange?: number }} steps
 * @returns {import('./methods.js').Detector}
 */
function variant(name, { floor = true, outliers = true, minChange = DEFAULT_RULE.minChange }) {
  return {
    name,
    detect(past, candidate, better) {
      const window = past.slice(-DEFAULT_RULE.window);
      const positive = candidate.every((x) => x > 0) && window.every((p) => p.every((x) => x > 0));
      const tr = positive ? Math.log : (/** @type {number} */ x) => x;
      const all = window.map((p) => tr(median(p)));
      const xs = outliers ? withoutFarOutliers(all) : all;
      const k = xs.length;
      const mean = xs.reduce((a, b) => a + b, 0) / k;
      const sdPast = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (k - 1));
      const sd = floor
        ? predictionScale(sdPast, medianStandardError(candidate.map(tr)), typicalMedianError(window, tr))
        : sdPast;
      const diff = tr(median(candidate)) - mean;
      const ratio = positive ? Math.exp(diff) : median(candidate) / mean;
      const change = better === 'lower' ? ratio - 1 : 1 - ratio;
      const p = sd === 0 ? (diff === 0 ? 1 : 0) : 2 * tCdf(-Math.abs(diff / (sd * Math.sqrt(1 + 1 / k))), k - 1);
      return p < DEFAULT_RULE.alpha && change >= minChange && change > 0;
    },
  };
}

export const ABLATIONS = [
  variant('verdict, all steps (as judge())', {}),
  variant("without the new run's median error (floor and excess)", { floor: false }),
  variant('without outlier handling', { outliers: false }),
  variant('without the minimum change', { minChange: 0 }),
  variant('without floor and outlier handling', { floor: false, outliers: false }),
];
