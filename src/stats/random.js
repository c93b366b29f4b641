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

/**
 * A Gamma(shape, 1) deviate, shape >= 1 (Marsaglia and Tsang, "A simple method for generating gamma
 * variables", ACM TOMS 26(3), 2000): a normal deviate squeezed and accepted, about 1.02 tries a deviate.
 * @param {number} shape >= 1
 * @param {() => number} random
 */
export function gammaDeviate(shape, random) {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x;
    let v;
    do {
      x = normalDeviate(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * A Beta(a, b) deviate, a and b >= 1: X / (X + Y) of two gamma deviates.
 * @param {number} a @param {number} b @param {() => number} random
 */
export function betaDeviate(a, b, random) {
  const x = gammaDeviate(a, random);
  return x / (x + gammaDeviate(b, random));
}
