// Group-sequential boundaries: how much of a decision's false-alarm rate each look of a sampling design may
// spend, when the looks are of the same growing sample (5, 7, 10, 12 samples a side: each look holds the
// samples of the one before it).
//
// Why: Bonferroni over the looks (each look alpha / K) pays as if the K looks were independent; they are
// not (the estimate at 7 samples holds the 5 before it), so a look can be read at a looser level for the
// same chance of any false decision over all of them. A spending function (Lan and DeMets, 1983) says how
// much of alpha is spent by the time a fraction t of the design's largest sample has been seen; each look's
// boundary is then set so that the chance of first crossing it there, having crossed none before, is what
// the function allows at that look (Armitage, McPherson and Rowe's recursive integration of the statistic's
// density over the looks, on the normal scale: Jennison and Turnbull, "Group Sequential Methods", 1999,
// ch. 7 and 19). Read at these boundaries at every look, an interval covers the true change at all looks
// at once with the stated chance (repeated confidence intervals, ch. 9): a decision read at any look, for
// any reason to stop, is held to it. A t statistic (Welch's, few degrees of freedom) is read at the same
// nominal significance as its look's normal boundary (the "significance level" approach, ch. 3.8).
//
// Written here, not taken from a library: no maintained JavaScript package computes group-sequential
// boundaries (R's gsDesign and ldbounds do; this module checks itself against their published values in
// test/stats/sequential.test.js); the normal distribution itself is @stdlib's.
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/** @param {number} x */
const Phi = (x) => normalCdf(x, 0, 1);
/** @param {number} p */
const PhiInv = (p) => normalQuantile(p, 0, 1);
const SQRT_2PI = Math.sqrt(2 * Math.PI);

/**
 * @typedef {'bonferroni' | 'pocock' | 'obrien-fleming'} Design
 * bonferroni: alpha / K at each look (the correlation between looks unused); pocock: Lan-DeMets
 * Pocock-type spending, about even over the looks; obrien-fleming: Lan-DeMets O'Brien-Fleming-type,
 * almost nothing at the first looks, nearly all of alpha at the last.
 */
export const DESIGNS = /** @type {readonly Design[]} */ (Object.freeze(['bonferroni', 'pocock', 'obrien-fleming']));

/**
 * The alpha a spending function allows spent by information fraction t (0 < t <= 1), of `alpha` in all.
 * @param {Exclude<Design, 'bonferroni'>} design @param {number} alpha @param {number} t
 */
export function spent(design, alpha, t) {
  const f = Math.min(1, t);
  if (!(f > 0)) return 0;
  if (design === 'pocock') return alpha * Math.log(1 + (Math.E - 1) * f);
  return Math.min(alpha, 2 * (1 - Phi(PhiInv(1 - alpha / 2) / Math.sqrt(f))));
}

/** Points of the grid the statistic's density is carried on between looks (S scale, from LOW up). */
const GRID = 1201;
/** The grid's lower end on the score scale: S at a look has sd sqrt(t) <= 1, so this is >= 10 sd out. */
const LOW = -10;

/**
 * One-sided upper boundaries on the normal scale, one per look, for a statistic observed at information
 * fractions `fractions` (increasing, the last 1), such that under no change the chance of crossing at look k,
 * having crossed at none before it, is spent(t_k) - spent(t_{k-1}): over all looks, alpha.
 * @param {number[]} fractions @param {number} alpha one-sided, in (0, 0.5) @param {Exclude<Design, 'bonferroni'>} design
 * @returns {number[]} z boundaries (Infinity where a look spends nothing)
 */
export function boundaries(fractions, alpha, design) {
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`alpha must be in (0, 0.5): ${alpha}`);
  if (!fractions.length || fractions.some((t, i) => !(t > 0 && t <= 1) || (i > 0 && t <= fractions[i - 1])))
    throw new RangeError(`information fractions must increase within (0, 1]: ${fractions.join(', ')}`);
  /** @type {number[]} */
  const z = [];
  /** the density of S = Z sqrt(t) at the previous look, over the values that did not cross */
  let grid = null;
  let prevT = 0;
  for (const t of fractions) {
    const share = spent(design, alpha, t) - spent(design, alpha, prevT);
    const sd = Math.sqrt(t - prevT);
    const g = grid;
    const cross = g
      ? (/** @type {number} */ u) => integrate(g, (x) => 1 - Phi((u - x) / sd))
      : (/** @type {number} */ u) => 1 - Phi(u / sd);
    const u = share > 0 ? solveDecreasing(cross, share) : Infinity;
    z.push(u / Math.sqrt(t));
    grid = carried(g, sd, Math.min(u, -LOW));
    prevT = t;
  }
  return z;
}

/**
 * The one-sided alpha each look is read at (nominal: the chance of that look's boundary alone under no
 * change): alpha / K for Bonferroni, else 1 - Phi(boundary).
 * @param {number[]} looks the design's looks, samples a side, increasing @param {number} alpha @param {Design} design
 * @returns {number[]}
 */
export function nominalAlphas(looks, alpha, design) {
  if (design === 'bonferroni') return looks.map(() => alpha / looks.length);
  const last = looks[looks.length - 1];
  return boundaries(
    looks.map((n) => n / last),
    alpha,
    design,
  ).map((b) => (Number.isFinite(b) ? 1 - Phi(b) : 0));
}

/**
 * The trapezoid integral of density × h over the grid. @param {{ x: Float64Array, f: Float64Array }} g
 * @param {(x: number) => number} h
 */
function integrate(g, h) {
  let sum = 0;
  for (let i = 0; i < g.x.length; i++) {
    const w = i === 0 || i === g.x.length - 1 ? 0.5 : 1;
    sum += w * g.f[i] * h(g.x[i]);
  }
  return sum * (g.x[1] - g.x[0]);
}

/**
 * The density of S at the next look over (LOW, upper): the previous density (or S = 0 at the start)
 * moved by an independent normal step of sd `sd`.
 * @param {{ x: Float64Array, f: Float64Array } | null} g @param {number} sd @param {number} upper
 */
function carried(g, sd, upper) {
  const x = new Float64Array(GRID);
  const f = new Float64Array(GRID);
  const h = (upper - LOW) / (GRID - 1);
  const kernel = (/** @type {number} */ d) => Math.exp(-0.5 * (d / sd) ** 2) / (sd * SQRT_2PI);
  for (let i = 0; i < GRID; i++) {
    x[i] = LOW + i * h;
    const s = x[i];
    f[i] = g ? integrate(g, (y) => kernel(s - y)) : kernel(s);
  }
  return { x, f };
}

/**
 * The u where a decreasing function of u equals target, by bisection (the crossing chance falls as the
 * boundary rises).
 * @param {(u: number) => number} fn @param {number} target
 */
function solveDecreasing(fn, target) {
  let lo = -10;
  let hi = 40;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (fn(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
