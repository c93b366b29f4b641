// Statistics against reference values computed independently of this code:
// - R's ?wilcox.test example (Hollander & Wolfe depression data): W = 35, one-sided p = 0.1272 (exact),
//   so two-sided 0.2544; the same from scipy.stats.mannwhitneyu 1.17.1 (method='exact'): 0.2544122544122544.
// - Tied and large samples: scipy.stats.mannwhitneyu 1.17.1, method='asymptotic', use_continuity=True
//   (the normal approximation with tie correction, as R's wilcox.test(correct = TRUE)), run on 2026-11-21.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bootstrapCI,
  bootstrapMedianCI,
  cliffsDelta,
  mannWhitneyU,
  median,
  normalDeviate,
  ratioOfMedians,
  seededRandom,
  summarize,
} from '../../src/stats/index.js';
import { drawnMedian } from '../../src/stats/bootstrap.js';

const depressionX = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
const depressionY = [1.15, 0.88, 0.9, 0.74, 1.21];

test('median: odd, even, unsorted input left alone, empty is NaN', () => {
  const xs = [5, 1, 3];
  assert.equal(median(xs), 3);
  assert.deepEqual(xs, [5, 1, 3]);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('Mann-Whitney, exact (no ties, small samples): R and scipy reference', () => {
  const r = mannWhitneyU(depressionX, depressionY);
  assert.equal(r.u, 35);
  assert.equal(r.method, 'exact');
  assert.ok(Math.abs(r.p - 0.2544122544122544) < 1e-12, `p = ${r.p}`);
  // swapping the groups gives the complementary U and the same two-sided p
  const s = mannWhitneyU(depressionY, depressionX);
  assert.equal(s.u, 15);
  assert.ok(Math.abs(s.p - r.p) < 1e-12);
});

test('Mann-Whitney, exact, strong separation: scipy reference 6.185764699696588e-06', () => {
  const a = [10.1, 10.4, 9.8, 10.0, 10.2, 10.3, 9.9, 10.6, 10.05, 10.15, 10.25, 9.95];
  const b = [11.0, 10.9, 10.7, 11.2, 10.8, 11.1, 10.5, 10.65, 11.3, 10.95];
  const r = mannWhitneyU(a, b);
  assert.equal(r.u, 1);
  assert.ok(Math.abs(r.p - 6.185764699696588e-6) / 6.185764699696588e-6 < 1e-9, `p = ${r.p}`);
});

test('Mann-Whitney with ties: normal approximation with tie and continuity correction (scipy 0.0641466187)', () => {
  const r = mannWhitneyU([1, 2, 2, 3, 4], [2, 3, 5, 5, 6, 7]);
  assert.equal(r.u, 4.5);
  assert.equal(r.method, 'normal');
  // simple-statistics' erf approximation is good to ~1e-7
  assert.ok(Math.abs(r.p - 0.06414661873440437) < 1e-6, `p = ${r.p}`);
});

test('Mann-Whitney, 60 vs 55 values with ties (scipy U = 1070, p = 0.0011753531)', () => {
  const c = [
    94.1, 94.3, 103.3, 88.5, 99.3, 88.7, 105.5, 101.0, 106.8, 97.5, 102.0, 98.6, 96.3, 100.7, 93.7, 98.2, 103.5, 100.3,
    97.9, 110.9, 100.3, 97.1, 100.8, 97.4, 98.1, 98.2, 110.1, 100.1, 100.9, 103.4, 110.1, 98.9, 96.9, 112.4, 92.7, 98.2,
    103.3, 111.4, 95.3, 87.9, 103.3, 97.4, 98.1, 102.3, 101.1, 101.5, 97.8, 106.4, 107.5, 100.2, 97.7, 103.7, 102.4,
    94.8, 97.7, 105.2, 99.5, 98.4, 101.1, 99.8,
  ];
  const d = [
    103.0, 93.3, 111.7, 104.0, 98.6, 107.9, 104.5, 103.1, 108.2, 114.3, 105.8, 110.9, 113.8, 97.9, 100.4, 106.9, 94.5,
    101.7, 109.5, 108.2, 105.9, 93.5, 114.8, 105.8, 106.8, 105.5, 94.4, 95.8, 96.9, 112.6, 98.8, 101.8, 101.7, 105.9,
    105.5, 104.3, 96.7, 87.3, 103.8, 104.3, 109.2, 102.5, 99.9, 105.1, 95.2, 97.8, 98.0, 104.4, 113.5, 106.8, 108.7,
    104.2, 104.4, 100.8, 101.6,
  ];
  const r = mannWhitneyU(c, d);
  assert.equal(r.u, 1070);
  assert.ok(Math.abs(r.p - 0.0011753531096492472) < 1e-6, `p = ${r.p}`);
});

test('Mann-Whitney: identical constant samples give p = 1; an empty sample gives NaN', () => {
  assert.equal(mannWhitneyU([3, 3, 3], [3, 3]).p, 1);
  assert.ok(Number.isNaN(mannWhitneyU([], [1, 2]).p));
});

test("Cliff's delta: 2U/(n1 n2) - 1 without ties, and Romano et al.'s magnitude bands", () => {
  // U = 35 for the depression data (above), so delta = 70/50 - 1 = 0.4: medium (0.33 <= 0.4 < 0.474)
  assert.deepEqual(cliffsDelta(depressionX, depressionY), { delta: 0.4, magnitude: 'medium' });
  assert.deepEqual(cliffsDelta([1, 2, 3], [4, 5, 6]), { delta: -1, magnitude: 'large' });
  assert.deepEqual(cliffsDelta([1, 2, 3], [1, 2, 3]), { delta: 0, magnitude: 'negligible' });
  // ties count zero: pairs (2>1) (2=2) (2<3) -> 0; (5>1)(5>2)(5>3) -> 3; total 3/6
  assert.deepEqual(cliffsDelta([2, 5], [1, 2, 3]), { delta: 0.5, magnitude: 'large' });
  assert.equal(cliffsDelta([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10]).magnitude, 'negligible');
});

test('bootstrap: seeded (same seed, same interval), interval contains the estimate, narrower with more data', () => {
  const xs = Array.from({ length: 20 }, (_, i) => 100 + ((i * 37) % 11));
  const a = bootstrapCI(xs, median, { seed: 7 });
  const b = bootstrapCI(xs, median, { seed: 7 });
  assert.deepEqual(a, b);
  assert.ok(a.low <= median(xs) && median(xs) <= a.high);
  const s = summarize(xs);
  assert.equal(s.n, 20);
  assert.equal(s.median, median(xs));
  const wide = summarize([1, 10, 100, 1000, 10000]);
  assert.ok(wide.high - wide.low > s.high - s.low);
});

test('ratio of medians: candidate/baseline with an interval around it; a clear doubling excludes 1', () => {
  const base = [10, 11, 9, 10.5, 9.5, 10.2, 9.8, 10.1, 9.9, 10];
  const r = ratioOfMedians(
    base,
    base.map((x) => x * 2),
  );
  assert.equal(r.ratio, 2);
  assert.ok(r.low > 1.5 && r.high < 2.5 && r.low <= 2 && r.high >= 2, JSON.stringify(r));
  const same = ratioOfMedians(base, base);
  assert.ok(same.low < 1 && same.high > 1);
  assert.ok(Number.isNaN(ratioOfMedians([], base).ratio));
});

test('bootstrapMedianCI (fast path) equals bootstrapCI(xs, median) for the same seed', () => {
  const xs = [3, 9, 4, 7, 1, 8, 8, 2, 6, 5, 11, 0.5];
  assert.deepEqual(bootstrapMedianCI(xs, { seed: 3 }), bootstrapCI(xs, median, { seed: 3 }));
});

/** n samples around `level`, 10% log-normal spread, three decimals (as results hold them). @param {() => number} r */
const logNormal = (r, /** @type {number} */ n, /** @type {number} */ level) =>
  Array.from({ length: n }, () => Math.round(level * Math.exp(0.1 * normalDeviate(r)) * 1000) / 1000);

/**
 * The plain percentile bootstrap of a ratio of medians (each resample sorted), as a reference.
 * @param {number[]} b @param {number[]} c @param {number} resamples @param {number} seed
 */
function plainBootstrap(b, c, resamples, seed) {
  const r = seededRandom(seed);
  const med = (/** @type {number[]} */ xs) => median(Array.from(xs, () => xs[Math.floor(r() * xs.length)]));
  const ratios = Float64Array.from({ length: resamples }, () => med(c) / med(b)).sort();
  const at = (/** @type {number} */ p) => ratios[Math.round(p * (resamples - 1))];
  return { low: at(0.025), high: at(0.975) };
}

test('ratio of medians at sizes real runs have: the same intervals as before the large-side draw (issue 37)', () => {
  const r = seededRandom(11);
  const [a, b, c, d] = [logNormal(r, 7, 100), logNormal(r, 5, 110), logNormal(r, 299, 100), logNormal(r, 5, 104)];
  assert.deepEqual(ratioOfMedians(a, b), {
    ratio: 1.2220962600457954,
    low: 1.026275668457632,
    high: 1.3578685985055585,
  });
  assert.deepEqual(ratioOfMedians(c, d), {
    ratio: 1.0674762755331144,
    low: 0.9281257475480424,
    high: 1.1038896309735042,
  });
  assert.deepEqual(ratioOfMedians(d, c, { resamples: 500 }), {
    ratio: 0.9367889693853704,
    low: 0.9005648365540907,
    high: 1.076151508317493,
  });
});

test("ratio of medians, 10,000 samples against 5: fast either way round, seeded, the plain bootstrap's interval (issue 37)", () => {
  const r = seededRandom(5);
  const large = logNormal(r, 10_000, 100);
  const small = logNormal(r, 5, 105);
  for (const [b, c] of [
    [large, small],
    [small, large],
  ]) {
    for (const resamples of [2000, 500]) {
      const t0 = performance.now();
      const got = ratioOfMedians(b, c, { resamples });
      const ms = performance.now() - t0;
      // Sorting the large side in each resample took 1.5 s at 2,000 resamples on a quiet 2-core machine.
      assert.ok(ms < 250, `${b.length} vs ${c.length}, ${resamples} resamples: ${ms.toFixed(0)} ms`);
      assert.deepEqual(ratioOfMedians(b, c, { resamples }), got, 'seeded: the same interval again');
      const ref = plainBootstrap(b, c, resamples, 9);
      assert.ok(Math.abs(got.low / ref.low - 1) < 0.005, `low ${got.low} vs ${ref.low}`);
      assert.ok(Math.abs(got.high / ref.high - 1) < 0.005, `high ${got.high} vs ${ref.high}`);
      assert.ok(got.low <= got.ratio && got.ratio <= got.high);
    }
  }
});

test("a large side's resampled median is drawn with the plain bootstrap's distribution (odd and even sizes)", () => {
  // Against a constant side the interval is the large side's alone: 1 / its resampled medians.
  const ones = [1, 1, 1, 1, 1];
  for (const n of [300, 301, 2000, 2001]) {
    const large = logNormal(seededRandom(n), n, 100);
    const got = ratioOfMedians(large, ones, { resamples: 20_000 });
    const ref = plainBootstrap(large, ones, 20_000, 3);
    assert.ok(Math.abs(got.low / ref.low - 1) < 0.002, `n ${n}: low ${got.low} vs ${ref.low}`);
    assert.ok(Math.abs(got.high / ref.high - 1) < 0.002, `n ${n}: high ${got.high} vs ${ref.high}`);
  }
});

test("a drawn median's distribution is the resampled and sorted median's, value by value (n = 4 to 7)", () => {
  for (const n of [4, 5, 6, 7]) {
    const sorted = Float64Array.from({ length: n }, (_, i) => i);
    const r = seededRandom(n);
    const N = 100_000;
    /** @type {Map<number, number>[]} */
    const [drawn, plain] = [new Map(), new Map()];
    const count = (/** @type {Map<number, number>} */ m, /** @type {number} */ v) => m.set(v, (m.get(v) ?? 0) + 1);
    for (let i = 0; i < N; i++) {
      count(drawn, drawnMedian(sorted, r));
      count(plain, median(Array.from({ length: n }, () => sorted[Math.floor(r() * n)])));
    }
    for (const v of new Set([...drawn.keys(), ...plain.keys()])) {
      const [p, q] = [(drawn.get(v) ?? 0) / N, (plain.get(v) ?? 0) / N];
      assert.ok(Math.abs(p - q) < 0.006, `n ${n}, median ${v}: drawn ${p}, resampled ${q}`);
    }
  }
});
