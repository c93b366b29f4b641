// Noise models for the detection evaluation. Each model makes one run's samples: a run-level factor
// (between-run noise: another day, another neighbour on the host) times per-sample noise (within-run).
// Values are "lower is better" times around 100 unless a recorded series says otherwise.
import { median, normalDeviate } from '../../src/stats/index.js';

/**
 * @typedef {{ name: string, description: string, better: 'higher' | 'lower', run: (random: () => number, n: number) => number[] }} NoiseModel
 */

/**
 * @param {string} name @param {string} description
 * @param {{ between: number, sample: (random: () => number) => number, shifts?: { probability: number, size: number } }} p
 * @returns {NoiseModel}
 */
function model(name, description, { between, sample, shifts }) {
  return {
    name,
    description,
    better: 'lower',
    run(random, n) {
      let level = 100 * Math.exp(between * normalDeviate(random));
      // occasional larger between-run jumps: a noisy neighbour for a whole run
      if (shifts && random() < shifts.probability) level *= 1 + shifts.size * (random() < 0.5 ? -1 : 1);
      return Array.from({ length: n }, () => level * sample(random));
    },
  };
}

/** @returns {NoiseModel[]} */
export function syntheticModels() {
  return [
    model('normal', 'within-run normal, sd 3%; between-run sd 1%', {
      between: 0.01,
      sample: (r) => 1 + 0.03 * normalDeviate(r),
    }),
    model('log-normal', 'within-run log-normal, sigma 5% (right-skewed timings); between-run sd 1.5%', {
      between: 0.015,
      sample: (r) => Math.exp(0.05 * normalDeviate(r)),
    }),
    model('heavy tails', 'within-run sd 3% plus 5% outliers at 1.5x-3x; between-run sd 1%', {
      between: 0.01,
      sample: (r) => (r() < 0.05 ? 1.5 + 1.5 * r() : 1 + 0.03 * normalDeviate(r)),
    }),
    model('between-run shifts', 'within-run sd 2%; between-run sd 2.5%, and 10% of runs shifted by 8%', {
      between: 0.025,
      sample: (r) => 1 + 0.02 * normalDeviate(r),
      shifts: { probability: 0.1, size: 0.08 },
    }),
  ];
}

/** A recorded series needs this many runs of its set: its between-run spread is measured from their medians. */
export const MIN_RECORDED_RUNS = 2;

/**
 * Every recorded series of every set, with its runs' samples, keyed "set: benchmark metric environment".
 * @param {any} recorded the content of recorded-samples.json
 */
function recordedSeries(recorded) {
  /** @type {Map<string, { series: any, runs: number[][] }>} */
  const byKey = new Map();
  for (const run of recorded.runs) {
    for (const s of run.series) {
      const key = `${run.set}: ${s.benchmark} ${s.metric} ${s.environmentKey}`;
      if (!byKey.has(key)) byKey.set(key, { series: s, runs: [] });
      /** @type {any} */ (byKey.get(key)).runs.push(s.samples);
    }
  }
  return byKey;
}

/**
 * The recorded series left out of the models: recorded in fewer than MIN_RECORDED_RUNS runs of their set,
 * so their between-run spread cannot be measured (a spread made up for them would decide what every rule
 * detects there: with a small one, a run's level is known to within its samples' error).
 * @param {any} recorded @returns {string[]}
 */
export const recordedTooFew = (recorded) =>
  [...recordedSeries(recorded)].filter(([, { runs }]) => runs.length < MIN_RECORDED_RUNS).map(([key]) => key);

/**
 * Models from recorded series: a run is a bootstrap resample of one recorded run's samples, scaled by a
 * between-run factor whose spread is the measured spread of that series' run medians across the runs of
 * its set (at least 1%). One model per series per set: a set is runs recorded under the same conditions
 * (recorded-samples.json's `sets`: a loaded machine's runs and a quiet one's are not one series). Series
 * recorded in fewer than MIN_RECORDED_RUNS runs of their set have no measured between-run spread and no
 * model (recordedTooFew names them).
 * @param {any} recorded the content of recorded-samples.json
 * @returns {NoiseModel[]}
 */
export function recordedModels(recorded) {
  const byKey = [...recordedSeries(recorded)].filter(([, { runs }]) => runs.length >= MIN_RECORDED_RUNS);
  return byKey.map(([key, { series, runs }]) => {
    const logMedians = runs.map((xs) => Math.log(median(xs)));
    const mean = logMedians.reduce((a, b) => a + b, 0) / logMedians.length;
    const sdBetween = Math.sqrt(logMedians.reduce((a, x) => a + (x - mean) ** 2, 0) / (logMedians.length - 1));
    const between = Math.max(0.01, sdBetween);
    const within = runs.map((xs) => {
      const m = median(xs);
      return xs.map((x) => x / m);
    });
    return {
      name: `recorded, ${key}`,
      description: `${runs.length} recorded run(s) of ${runs[0].length} samples, resampled; between-run sd ${(between * 100).toFixed(1)}%`,
      better: series.better,
      run(random, n) {
        const pool = within[Math.floor(random() * within.length)];
        const level = Math.exp(mean + between * normalDeviate(random));
        return Array.from({ length: n }, () => level * pool[Math.floor(random() * pool.length)]);
      },
    };
  });
}
