// The pure part of the A/A gate benchmark (bench/aa-gate.js): a run plan in which every environment runs
// twice as two identical copies, the random split of a cell's real samples into two halves, the tally of
// a reading's outcomes, and the Wilson interval of a rate. No engine: test/bench/aa-gate.test.js tests it.
import { probit, shuffle } from 'simple-statistics';
import { cellKey } from '../../src/run/plan.js';
import { median } from '../../src/stats/index.js';

/** The two copies of one environment in an A/A run. */
export const SIDES = /** @type {const} */ (['a', 'b']);

/**
 * An environment key's copy: `docker` -> `docker-a`, `dind@20.10` -> `dind-a@20.10` (the engine part stays
 * last, where the reports read it).
 * @param {string} key @param {typeof SIDES[number]} side
 */
export const sideKey = (key, side) => key.replace(/^[^@]+/, (name) => `${name}-${side}`);

/**
 * A run plan (src/run/plan.js makePlan) with every environment twice, as copies A and B of the same
 * environment (same name, same engine, two keys), and every step twice in a row, A then B: the same
 * interleaved order a run gives two environments of an A/B (`run --env dind --engine 20.10,26.1` plans
 * dind@20.10 then dind@26.1 in every round).
 * @param {ReturnType<typeof import('../../src/run/plan.js').makePlan>} plan
 * @returns {ReturnType<typeof import('../../src/run/plan.js').makePlan>}
 */
export function aaPlan(plan) {
  const environments = plan.environments.flatMap((e) => SIDES.map((s) => ({ ...e, key: sideKey(e.key, s) })));
  /** @type {Map<string, string[]>} a planned cell's key -> its copies' keys */
  const copies = new Map();
  const cells = plan.cells.flatMap((c) => {
    const two = SIDES.map((s) => {
      const env = sideKey(c.env, s);
      return { ...c, env, key: cellKey(c.benchmark, env, c.distro) };
    });
    copies.set(
      c.key,
      two.map((x) => x.key),
    );
    return two;
  });
  const steps = plan.steps.flatMap((st) =>
    /** @type {string[]} */ (copies.get(st.cell)).map((cell) => ({ ...st, cell })),
  );
  return { environments, cells, steps };
}

/**
 * One random split of a sample set into two halves of the sizes given (the first `sizeA` of a shuffled
 * copy, then the rest). The input is not changed.
 * @param {number[]} samples @param {number} sizeA @param {() => number} random uniform in [0, 1)
 * @returns {[number[], number[]]}
 */
export function splitAtRandom(samples, sizeA, random) {
  if (!(sizeA >= 0 && sizeA <= samples.length))
    throw new RangeError(`cannot take ${sizeA} of ${samples.length} samples`);
  const shuffled = shuffle(samples, random);
  return [shuffled.slice(0, sizeA), shuffled.slice(sizeA)];
}

/**
 * A resampled A/A of one real A/A run: for each metric, the samples both copies recorded are pooled and
 * split at random into two sets of the copies' own sizes; the result is a results document (its cells
 * only, all that src/reading/ readAb reads) with environments `a` and `b`.
 * @param {any[]} cellsA copy A's cells (status ok) @param {any[]} cellsB copy B's cells (status ok)
 * @param {() => number} random
 * @returns {{ cells: any[] }}
 */
export function resampledRun(cellsA, cellsB, random) {
  const cells = [];
  for (const a of cellsA) {
    const b = cellsB.find((c) => c.benchmark === a.benchmark && c.distro === a.distro);
    if (!b) continue;
    const metricsA = [];
    const metricsB = [];
    for (const ma of a.metrics) {
      const mb = b.metrics.find((/** @type {any} */ m) => m.metric === ma.metric);
      if (!mb) continue;
      const [sa, sb] = splitAtRandom([...ma.samples, ...mb.samples], ma.samples.length, random);
      metricsA.push({ ...ma, samples: sa });
      metricsB.push({ ...mb, samples: sb });
    }
    cells.push({ ...a, environmentKey: 'a', metrics: metricsA }, { ...b, environmentKey: 'b', metrics: metricsB });
  }
  return { cells };
}

/**
 * Two runs' cells as one A/A document: run 1's cells as environment `a`, run 2's as `b` (the between-run
 * comparison, for contrast with the within-run one).
 * @param {any[]} cells1 @param {any[]} cells2
 * @returns {{ cells: any[] }}
 */
export const acrossRuns = (cells1, cells2) => ({
  cells: [...cells1.map((c) => ({ ...c, environmentKey: 'a' })), ...cells2.map((c) => ({ ...c, environmentKey: 'b' }))],
});

/**
 * @typedef {{ gated: number, regression: number, improvement: number, equivalent: number,
 *   inconclusive: number, unread: number, anyRegression: boolean, anyImprovement: boolean }} Tally
 * `gated`: the comparisons with an outcome, those a gate judges; `unread`: those without one (a change
 * that is not a number, e.g. both medians 0), which the gate leaves out as abCommand does.
 */

/**
 * How a reading's comparisons came out. In an A/A every regression is a false one (and so is every
 * improvement); `anyRegression` is what fails a gate with --fail-on regression.
 * @param {Array<{ outcome: string | null }>} comparisons
 * @returns {Tally}
 */
export function tally(comparisons) {
  const count = (/** @type {string | null} */ o) => comparisons.filter((c) => c.outcome === o).length;
  const t = {
    gated: comparisons.filter((c) => c.outcome !== null).length,
    regression: count('regression'),
    improvement: count('improvement'),
    equivalent: count('equivalent'),
    inconclusive: count('inconclusive'),
    unread: count(null),
  };
  return { ...t, anyRegression: t.regression > 0, anyImprovement: t.improvement > 0 };
}

/**
 * Tallies added up: comparisons by outcome, and how many of the pairs had any false regression.
 * @param {Tally[]} tallies
 */
export function addUp(tallies) {
  const sum = (/** @type {keyof Tally} */ k) => tallies.reduce((n, t) => n + Number(t[k]), 0);
  return {
    pairs: tallies.length,
    comparisons: sum('gated'),
    regression: sum('regression'),
    improvement: sum('improvement'),
    equivalent: sum('equivalent'),
    inconclusive: sum('inconclusive'),
    unread: sum('unread'),
    pairsWithRegression: sum('anyRegression'),
    pairsWithImprovement: sum('anyImprovement'),
  };
}

/**
 * The Wilson score interval of a proportion k/n. Written here (a few lines) because the project's
 * statistics dependency, simple-statistics, has no binomial interval (only the normal quantile, used
 * here); Wilson rather than the plain normal one because it stays inside [0, 1] and is not empty at
 * k = 0, which is what an A/A rate near 0 needs.
 * @param {number} k successes @param {number} n trials @param {number} [level]
 * @returns {{ rate: number, low: number, high: number }}
 */
export function wilson(k, n, level = 0.95) {
  if (!(n > 0) || k < 0 || k > n) return { rate: NaN, low: NaN, high: NaN };
  const z = probit(1 - (1 - level) / 2);
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The comparisons an A/A found a change in (every one a false finding), as "benchmark metric outcome"
 * names, counted over many readings, most frequent first.
 * @param {Array<Array<{ benchmark: string, metric: string, outcome: string | null }>>} readings
 * @returns {Array<{ name: string, count: number }>}
 */
export function falseFindings(readings) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const comparisons of readings)
    for (const c of comparisons)
      if (c.outcome === 'regression' || c.outcome === 'improvement') {
        const name = `${c.benchmark} ${c.metric} ${c.outcome}`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
}

/**
 * What a reading could see: the median over its gated comparisons of the smallest change each could have
 * shown (`detectable.change`), and how many could show none (too few samples or no spread to test).
 * @param {Array<{ outcome: string | null, detectable?: { change: number | null } }>} comparisons
 * @returns {{ median: number, none: number }}
 */
export function sees(comparisons) {
  const gated = comparisons.filter((c) => c.outcome !== null);
  const changes = gated.map((c) => c.detectable?.change).filter((x) => typeof x === 'number' && Number.isFinite(x));
  return {
    median: changes.length ? median(/** @type {number[]} */ (changes)) : NaN,
    none: gated.length - changes.length,
  };
}
