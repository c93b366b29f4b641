// The summary precomputed for each point, so charts draw a median and its 95% interval without
// recomputing anything in the browser.
// INTERIM until src/stats lands on main: median with a distribution-free interval from order statistics.
import { median } from '../results/report.js';

/** @param {number[]} samples @returns {{n: number, median: number, low: number, high: number}} */
export function summarizePoint(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  // The interval [s(j), s(n-1-j)] (0-based order statistics) misses the median with probability
  // 2 P(X <= j), X ~ binomial(n, 1/2): take the largest j keeping that <= 5%. With fewer than 6 samples
  // no j does, and the interval is the full range.
  let j = 0;
  let tail = 0;
  for (let k = 0; k < n / 2; k++) {
    tail += binom(n, k) / 2 ** n;
    if (tail > 0.025) break;
    j = k;
  }
  j = Math.min(j, Math.floor((n - 1) / 2));
  return { n, median: median(s), low: s[j], high: s[n - 1 - j] };
}

/** @param {number} n @param {number} k */
function binom(n, k) {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}
