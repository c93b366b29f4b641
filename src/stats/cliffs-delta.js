// Cliff's delta: how often a value of `a` exceeds a value of `b`, minus the reverse, over all pairs.
// An effect size that needs no distribution and reads plainly: +1 means every a is above every b.
// Hand-written: a few lines, and no maintained npm package offers it with the magnitude labels.

// Thresholds of Romano et al. (2006), "Appropriate statistics for ordinal level data", the usual reference.
const MAGNITUDES = /** @type {const} */ ([
  [0.147, 'negligible'],
  [0.33, 'small'],
  [0.474, 'medium'],
]);

/**
 * @param {number[]} a @param {number[]} b
 * @returns {{ delta: number, magnitude: 'negligible' | 'small' | 'medium' | 'large' }}
 */
export function cliffsDelta(a, b) {
  if (a.length === 0 || b.length === 0) return { delta: NaN, magnitude: 'negligible' };
  const sortedB = [...b].sort((x, y) => x - y);
  let dominance = 0;
  for (const x of a) dominance += countBelow(sortedB, x) - (sortedB.length - countAtOrBelow(sortedB, x));
  const delta = dominance / (a.length * b.length);
  const size = Math.abs(delta);
  const magnitude = MAGNITUDES.find(([limit]) => size < limit)?.[1] ?? 'large';
  return { delta, magnitude };
}

/** Number of values < x in an ascending array. @param {number[]} s @param {number} x */
function countBelow(s, x) {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of values <= x in an ascending array. @param {number[]} s @param {number} x */
function countAtOrBelow(s, x) {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
