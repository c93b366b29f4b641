// A seeded pseudo-random source, so a bootstrap interval is the same every time it is computed from the
// same samples (reports, tests and the detection evaluation are reproducible).
// Hand-written because it is a few lines: Mulberry32 (public-domain 32-bit generator by Tommy Ettinger),
// plenty for resampling indices. simple-statistics accepts any `() => number in [0, 1)` as its source.

/**
 * @param {number} seed any integer
 * @returns {() => number} uniform in [0, 1)
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A standard normal deviate from a uniform source (Box-Muller), for the evaluation's noise models.
 * @param {() => number} random
 */
export function normalDeviate(random) {
  const u = 1 - random(); // (0, 1]: log(0) never happens
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
