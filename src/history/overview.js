// The overview of one run, precomputed at publish time so the site's first screen loads one small file:
// per benchmark, metric and distro, each environment's median with its interval, each environment
// against plain Docker (ratio of medians with interval, Cliff's delta, and the word `compare` reads it
// as: ../results/within-run.js), and each series against its own previous runs on the same hardware: the
// verdict `compare --history` gives (../stats/verdicts.js), over the same window of earlier runs.
import { workloadCosts } from '../results/job-cost.js';
import { compareSampleSets, withinRunWord } from '../results/within-run.js';
import { historyDetectable } from '../stats/detectable.js';
import { DEFAULT_RULE, judge, pastWindow } from '../stats/verdicts.js';
import { summarizePoint } from './summary.js';

/**
 * @typedef {import('#model/overview.js').Overview} Overview
 * @typedef {import('#model/overview.js').OverviewRow} OverviewRow
 * @typedef {import('#model/overview.js').OverviewEnv & { samples: number[] }} EnvWithSamples
 * @typedef {Omit<OverviewRow, 'envs'> & { envs: Record<string, EnvWithSamples> }} WorkingRow
 */

/**
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {import('./points.js').SeriesPoint[]} points the run's points (from pointsOf)
 * @param {(key: string) => import('./points.js').StoredPoint[]} previousPoints the series' earlier runs, oldest first
 * @returns {Overview}
 */
export function overviewOf(results, points, previousPoints) {
  const rows = withNative(rowsOf(points, previousPoints));
  for (const row of rows) row.vsDocker = vsDockerOf(row);
  return {
    format: 'dind-bench-overview',
    // 2: `trend` is the verdict of ../stats/verdicts.js (status, change, p, pastRuns, reason).
    // 3: `vsDocker[env].verdict` is compare's within-run word (worse, better, no diff, too few), with its p.
    // 4: `trend.detectable`, the smallest change the series' history lets a run detect.
    version: 4,
    run: runOf(results),
    runner: { name: results.runner.name, labels: results.runner.labels, machineType: results.runner.machineType },
    // A workload run's cost per job, as the reports compute it: the site opens with the same sentence.
    jobs: workloadCosts(results),
    host: results.host,
    engines: results.engines,
    environments: results.environments.map((e) => ({
      key: e.key,
      name: e.name,
      engine: e.engine,
      status: e.status,
      reason: e.reason,
      facts: e.facts,
    })),
    unavailable: results.cells
      .filter((c) => c.status !== 'ok')
      .map((c) => ({
        benchmark: c.benchmark,
        environmentKey: c.environmentKey,
        distro: c.distro,
        status: c.status,
        reason: c.reason,
      })),
    // Samples were needed for the comparisons only; the overview file keeps the summaries.
    rows: rows
      .map(withoutSamples)
      .sort((a, b) => `${a.benchmark}|${a.metric}|${a.distro}`.localeCompare(`${b.benchmark}|${b.metric}|${b.distro}`)),
  };
}

/** @param {import('#model/results.js').Results} results @returns {Overview['run']} */
function runOf(results) {
  const run = results.run;
  return {
    id: run.id,
    time: run.startedAt,
    endedAt: run.endedAt,
    profile: run.profile,
    iterations: run.iterations,
    complete: run.complete,
    commit: results.caller?.commit ?? results.suite.commit ?? null,
  };
}

/**
 * One row per benchmark, metric and distro, each environment's summary, samples and trend in it.
 * @param {import('./points.js').SeriesPoint[]} points
 * @param {(key: string) => import('./points.js').StoredPoint[]} previousPoints
 * @returns {Map<string, WorkingRow>}
 */
function rowsOf(points, previousPoints) {
  /** @type {Map<string, WorkingRow>} */
  const rows = new Map();
  for (const { series, point } of points) {
    const id = `${series.benchmark}|${series.metric}|${series.distro}`;
    const row = rows.get(id) ?? {
      benchmark: series.benchmark,
      metric: series.metric,
      distro: series.distro,
      unit: series.unit,
      better: series.better,
      envs: {},
      vsDocker: {},
    };
    rows.set(id, row);
    const prev = pastWindow(previousPoints(series.key), DEFAULT_RULE);
    row.envs[series.environmentKey] = {
      key: series.key,
      ...(point.summary ?? summarizePoint(point.samples)),
      samples: point.samples,
      engines: point.engines,
      storageDriver: point.storageDriver,
      trend: trendOf(point, prev, series.better),
    };
  }
  return rows;
}

/**
 * Native cells run on the host, not an image: their rows (distro "host") join each distro's row of the
 * same metric, so they are compared against Docker there; a host row stays only where no distro has one.
 * @param {Map<string, WorkingRow>} rows @returns {WorkingRow[]}
 */
function withNative(rows) {
  const all = [...rows.values()];
  const nativeRows = all.filter((r) => r.distro === 'host');
  for (const row of all) {
    if (row.distro === 'host') continue;
    const native = nativeRows.find((n) => n.benchmark === row.benchmark && n.metric === row.metric);
    if (native) Object.assign(row.envs, native.envs);
  }
  return all.filter(
    (r) =>
      r.distro !== 'host' ||
      !all.some((o) => o.distro !== 'host' && o.benchmark === r.benchmark && o.metric === r.metric),
  );
}

/**
 * Each environment of a row against Docker, by the within-run rule `compare` reads a run with (its
 * bootstrap too), so the site shows its word.
 * @param {WorkingRow} row @returns {OverviewRow['vsDocker']}
 */
function vsDockerOf(row) {
  /** @type {OverviewRow['vsDocker']} */
  const out = {};
  const docker = row.envs.docker;
  if (!docker) return out;
  for (const [envKey, e] of Object.entries(row.envs)) {
    if (envKey === 'docker') continue;
    const c = compareSampleSets(docker.samples, e.samples, row.better);
    out[envKey] = {
      ...c.ratio,
      p: c.p,
      delta: c.cliffsDelta,
      magnitude: c.magnitude,
      verdict: withinRunWord(c),
      // What this run could detect against Docker (the site's overview shows it per metric).
      detectable: { change: c.detectable.change, iterationsFor5Pct: c.detectable.iterationsFor5Pct },
    };
  }
  return out;
}

/** @param {WorkingRow} row @returns {OverviewRow} */
function withoutSamples(row) {
  /** @type {OverviewRow['envs']} */
  const envs = {};
  for (const [envKey, e] of Object.entries(row.envs)) {
    const { key, n, median, low, high, engines, storageDriver, trend } = e;
    envs[envKey] = { key, n, median, low, high, engines, storageDriver, trend };
  }
  return { ...row, envs };
}

/**
 * This run against the series' earlier runs, decided by the one verdict rule (the library defaults, as
 * `compare --history` without --config), so the site shows the word compare would.
 * @param {import('./points.js').StoredPoint} point @param {import('./points.js').StoredPoint[]} previous oldest first
 * @param {'higher'|'lower'} better
 */
export function trendOf(point, previous, better) {
  const v = judge(previous, { samples: point.samples, engines: point.engines }, better, DEFAULT_RULE);
  // What this history lets a run like this one detect (compare --history prints the same beside its verdict).
  const d = historyDetectable(previous, point.samples, DEFAULT_RULE);
  return {
    status: v.status,
    change: v.change,
    p: v.p,
    pastRuns: v.pastRuns,
    pastMedian: v.pastMedian,
    reason: v.reason,
    engineChange: v.engineChange,
    detectable: { change: d.change, iterationsFor5Pct: d.iterationsFor5Pct },
  };
}
