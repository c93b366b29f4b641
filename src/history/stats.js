// The statistics the history needs, behind one import so the store switches to the project's
// src/stats (owned by the stats work, same function names and shapes) in one line once it is on main.
// INTERIM: small seeded implementations of the agreed contract, used until then.
import { median } from '../results/report.js';

export { median };

/** A small seeded PRNG (mulberry32): the same run always gives the same intervals. @param {number} seed */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The median of a resample of `xs` into `buf` (typed-array sort: no comparator, no garbage). */
function resampledMedian(/** @type {number[]} */ xs, /** @type {Float64Array} */ buf, /** @type {() => number} */ r) {
  for (let i = 0; i < buf.length; i++) buf[i] = xs[Math.floor(r() * xs.length)];
  buf.sort();
  const mid = buf.length >> 1;
  return buf.length % 2 ? buf[mid] : (buf[mid - 1] + buf[mid]) / 2;
}


const quantile = (/** @type {ArrayLike<number>} */ sorted, /** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];

/**
 * Candidate median / baseline median with a percentile-bootstrap interval.
 * @param {number[]} baseline @param {number[]} candidate
 */
export function ratioOfMedians(baseline, candidate, { level = 0.95, resamples = 1000, seed = 1 } = {}) {
  const r = rng(seed);
  const bufB = new Float64Array(baseline.length);
  const bufC = new Float64Array(candidate.length);
  const ratios = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) ratios[i] = resampledMedian(candidate, bufC, r) / resampledMedian(baseline, bufB, r);
  const finite = ratios.filter(Number.isFinite).sort();
  const a = (1 - level) / 2;
  return { ratio: median(candidate) / median(baseline), low: quantile(finite, a), high: quantile(finite, 1 - a) };
}

/** Cliff's delta: P(a > b) - P(a < b), with the usual magnitude thresholds. @param {number[]} a @param {number[]} b */
export function cliffsDelta(a, b) {
  let gt = 0;
  let lt = 0;
  for (const x of a) for (const y of b) x > y ? gt++ : x < y ? lt++ : 0;
  const delta = a.length && b.length ? (gt - lt) / (a.length * b.length) : 0;
  const d = Math.abs(delta);
  const magnitude = d < 0.147 ? 'negligible' : d < 0.33 ? 'small' : d < 0.474 ? 'medium' : 'large';
  return { delta, magnitude };
}
