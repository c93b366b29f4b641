// The overview of one run, precomputed at publish time so the site's first screen loads one small file:
// per benchmark, metric and distro, each environment's median with its interval, each environment
// against plain Docker (ratio of medians with interval, Cliff's delta), and each series against its own
// previous runs on the same hardware (regression / improvement / unchanged).
import { cliffsDelta, median, ratioOfMedians } from './stats.js';
import { summarizePoint } from './summary.js';

/** Runs before this one that a series' trend compares against (their medians). */
export const TREND_WINDOW = 5;
/** A change smaller than this fraction is "unchanged" even when its interval excludes zero. */
export const TREND_THRESHOLD = 0.03;

/**
 * Worse, better or neither, from an interval on a ratio (candidate / baseline) and the metric's direction.
 * @param {{low: number, high: number}} ci @param {'higher'|'lower'} better @param {number} threshold
 */
export function direction(ci, better, threshold = 0) {
  const up = ci.low > 1 + threshold;
  const down = ci.high < 1 - threshold;
  if (!up && !down) return 'same';
  return up === (better === 'lower') ? 'worse' : 'better';
}

/**
 * @param {any} results a valid results document
 * @param {import('./points.js').SeriesPoint[]} points the run's points (from pointsOf)
 * @param {(key: string) => number[][]} previousSamples samples of the series' previous runs, newest last
 */
export function overviewOf(results, points, previousSamples) {
  /** @type {Map<string, any>} */
  const rows = new Map();
  for (const { series, point } of points) {
    const id = `${series.benchmark}|${series.metric}|${series.distro}`;
    if (!rows.has(id)) {
      rows.set(id, { benchmark: series.benchmark, metric: series.metric, distro: series.distro, unit: series.unit, better: series.better, envs: {} });
    }
    const prev = previousSamples(series.key).slice(-TREND_WINDOW);
    rows.get(id).envs[series.environmentKey] = {
      key: series.key,
      ...(point.summary ?? summarizePoint(point.samples)),
      samples: point.samples,
      engines: point.engines,
      storageDriver: point.storageDriver,
      trend: trendOf(point.samples, prev, series.better),
    };
  }
  // Native cells run on the host, not an image: compare them against Docker on each distro.
  const nativeRows = [...rows.values()].filter((r) => r.distro === 'host');
  for (const row of rows.values()) {
    if (row.distro === 'host') continue;
    const native = nativeRows.find((n) => n.benchmark === row.benchmark && n.metric === row.metric);
    if (native) Object.assign(row.envs, native.envs);
  }
  const out = [...rows.values()].filter(
    (r) => r.distro !== 'host' || ![...rows.values()].some((o) => o.distro !== 'host' && o.benchmark === r.benchmark && o.metric === r.metric),
  );
  for (const row of out) {
    const docker = row.envs.docker;
    row.vsDocker = {};
    if (!docker) continue;
    for (const [envKey, e] of Object.entries(row.envs)) {
      if (envKey === 'docker') continue;
      const r = ratioOfMedians(docker.samples, e.samples, { seed: 7 });
      const d = cliffsDelta(e.samples, docker.samples);
      row.vsDocker[envKey] = { ...r, delta: d.delta, magnitude: d.magnitude, verdict: direction(r, row.better) };
    }
  }
  // Samples were needed for the comparisons only; the overview file keeps the summaries.
  for (const row of out) for (const e of Object.values(row.envs)) delete e.samples;
  const run = results.run;
  return {
    format: 'dind-bench-overview',
    version: 1,
    run: {
      id: run.id,
      time: run.startedAt,
      endedAt: run.endedAt,
      profile: run.profile,
      iterations: run.iterations,
      complete: run.complete,
      commit: results.suite.commit ?? null,
    },
    runner: { name: results.runner.name, labels: results.runner.labels, machineType: results.runner.machineType },
    host: results.host,
    engines: results.engines,
    environments: results.environments.map((/** @type {any} */ e) => ({ key: e.key, name: e.name, engine: e.engine, status: e.status, reason: e.reason, facts: e.facts })),
    unavailable: results.cells.filter((/** @type {any} */ c) => c.status !== 'ok').map((/** @type {any} */ c) => ({
      benchmark: c.benchmark, environmentKey: c.environmentKey, distro: c.distro, status: c.status, reason: c.reason,
    })),
    rows: out.sort((a, b) => `${a.benchmark}|${a.metric}|${a.distro}`.localeCompare(`${b.benchmark}|${b.metric}|${b.distro}`)),
  };
}

/**
 * This run's samples against the medians of the series' previous runs: night-to-night variation is
 * the noise a regression must stand out from, and five medians keep the bootstrap cheap.
 * @param {number[]} samples @param {number[][]} previous @param {'higher'|'lower'} better
 */
function trendOf(samples, previous, better) {
  if (!previous.length) return { verdict: 'first', runs: 0 };
  const medians = previous.map((p) => median(p));
  const d = cliffsDelta(samples, medians);
  // A negligible effect size is "unchanged" whatever the interval says: skip the bootstrap.
  if (d.magnitude === 'negligible') return { verdict: 'unchanged', runs: previous.length, ratio: median(samples) / median(medians), delta: d.delta, magnitude: d.magnitude };
  const r = ratioOfMedians(medians, samples, { seed: 11 });
  const dir = direction(r, better, TREND_THRESHOLD);
  const verdict = dir === 'same' ? 'unchanged' : dir === 'worse' ? 'regression' : 'improvement';
  return { verdict, runs: previous.length, ratio: r.ratio, low: r.low, high: r.high, delta: d.delta, magnitude: d.magnitude };
}
