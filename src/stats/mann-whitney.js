// Mann-Whitney U test (Wilcoxon rank-sum), two-sided, computed as R's wilcox.test does by default:
// the exact distribution of U when both samples have fewer than 50 values and there are no ties, otherwise
// the normal approximation with tie correction and continuity correction.
// Hand-written because no maintained npm package gives p-values with both of these (simple-statistics has
// the rank sum only; the `mann-whitney-utest` package has neither ties nor p-values).
import { errorFunction } from 'simple-statistics';

/** Upper tail of the standard normal: P(Z > z). @param {number} z */
const upperNormal = (z) => (1 - errorFunction(z / Math.SQRT2)) / 2;

/**
 * @param {number[]} a
 * @param {number[]} b
 * @returns {{ u: number, p: number, method: 'exact' | 'normal' }} `u` is a's statistic (R's W): pairs
 *   with a > b, ties counting one half. `p` is NaN when either sample is empty.
 */
export function mannWhitneyU(a, b) {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return { u: NaN, p: NaN, method: 'normal' };
  const { rankSumA, tieTerm } = ranks(a, b);
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  if (n1 < 50 && n2 < 50 && tieTerm === 0) return { u, p: exactTwoSided(u, n1, n2), method: 'exact' };
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (sd === 0) return { u, p: 1, method: 'normal' }; // every value equal: no evidence of a difference
  const diff = u - mean;
  const z = (diff - Math.sign(diff) * 0.5) / sd;
  return { u, p: Math.min(1, 2 * upperNormal(Math.abs(z))), method: 'normal' };
}

/**
 * Midranks of the pooled samples; returns a's rank sum and sum(t^3 - t) over tie groups.
 * @param {number[]} a @param {number[]} b
 */
function ranks(a, b) {
  const pooled = [...a.map((v) => ({ v, fromA: true })), ...b.map((v) => ({ v, fromA: false }))].sort(
    (x, y) => x.v - y.v,
  );
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < pooled.length;) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1].v === pooled[i].v) j++;
    const midrank = (i + j + 2) / 2; // ranks are 1-based
    const t = j - i + 1;
    if (t > 1) tieTerm += t ** 3 - t;
    for (let k = i; k <= j; k++) if (pooled[k].fromA) rankSumA += midrank;
    i = j + 1;
  }
  return { rankSumA, tieTerm };
}

/**
 * Exact two-sided p-value: frequencies of U from the generating function
 * prod_{i=1..n1} (1 - q^(n2+i)) / (1 - q^i) (a Gaussian binomial coefficient), as R's pwilcox counts them.
 * @param {number} u @param {number} n1 @param {number} n2
 */
function exactTwoSided(u, n1, n2) {
  const max = n1 * n2;
  const f = new Float64Array(max + 1);
  f[0] = 1;
  for (let i = 1; i <= n1; i++) {
    // multiply by (1 - q^(n2+i)), then divide by (1 - q^i): both exact on the coefficient arrays
    for (let k = max; k >= n2 + i; k--) f[k] -= f[k - n2 - i];
    for (let k = i; k <= max; k++) f[k] += f[k - i];
  }
  let total = 0;
  for (let k = 0; k <= max; k++) total += f[k];
  // the smaller tail at the observed U, doubled (the distribution is symmetric)
  const k = u > max / 2 ? max - u : u;
  let tail = 0;
  for (let j = 0; j <= k; j++) tail += f[j];
  return Math.min(1, (2 * tail) / total);
}
