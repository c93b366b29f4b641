// The overview of one run, precomputed at publish time so the site's first screen loads one small file:
// per benchmark, metric and distro, each environment's median with its interval, each environment
// against plain Docker (ratio of medians with interval, Cliff's delta, and the word `compare` reads it
// as: ../results/within-run.js), and each series against its own previous runs on the same hardware: the
// verdict `compare --history` gives (../stats/verdicts.js), over the same window of earlier runs.
import { workloadCosts } from '../results/job-cost.js';
import { compareSampleSets, withinRunWord } from '../results/within-run.js';
import { DEFAULT_RULE, judge, pastWindow } from '../stats/verdicts.js';
import { summarizePoint } from './summary.js';

/**
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {import('./points.js').SeriesPoint[]} points the run's points (from pointsOf)
 * @param {(key: string) => import('./points.js').StoredPoint[]} previousPoints the series' earlier runs, oldest first
 */
export function overviewOf(results, points, previousPoints) {
  /** @type {Map<string, any>} */
  const rows = new Map();
  for (const { series, point } of points) {
    const id = `${series.benchmark}|${series.metric}|${series.distro}`;
    if (!rows.has(id)) {
      rows.set(id, {
        benchmark: series.benchmark,
        metric: series.metric,
        distro: series.distro,
        unit: series.unit,
        better: series.better,
        envs: {},
      });
    }
    const prev = pastWindow(previousPoints(series.key), DEFAULT_RULE);
    rows.get(id).envs[series.environmentKey] = {
      key: series.key,
      ...(point.summary ?? summarizePoint(point.samples)),
      samples: point.samples,
      engines: point.engines,
      storageDriver: point.storageDriver,
      trend: trendOf(point, prev, series.better),
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
    (r) =>
      r.distro !== 'host' ||
      ![...rows.values()].some((o) => o.distro !== 'host' && o.benchmark === r.benchmark && o.metric === r.metric),
  );
  for (const row of out) {
    const docker = row.envs.docker;
    row.vsDocker = {};
    if (!docker) continue;
    for (const [envKey, e] of Object.entries(row.envs)) {
      if (envKey === 'docker') continue;
      // By the within-run rule `compare` reads a run with (its bootstrap too), so the site shows its word.
      const c = compareSampleSets(docker.samples, e.samples, row.better);
      row.vsDocker[envKey] = {
        ...c.ratio,
        p: c.p,
        delta: c.cliffsDelta,
        magnitude: c.magnitude,
        verdict: withinRunWord(c),
        // What this run could detect against Docker (the site's overview shows it per metric).
        detectable: { change: c.detectable.change, iterationsFor5Pct: c.detectable.iterationsFor5Pct },
      };
    }
  }
  // Samples were needed for the comparisons only; the overview file keeps the summaries.
  for (const row of out) for (const e of Object.values(row.envs)) delete e.samples;
  const run = results.run;
  return {
    format: 'dind-bench-overview',
    // 2: `trend` is the verdict of ../stats/verdicts.js (status, change, p, pastRuns, reason).
    // 3: `vsDocker[env].verdict` is compare's within-run word (worse, better, no diff, too few), with its p.
    version: 3,
    run: {
      id: run.id,
      time: run.startedAt,
      endedAt: run.endedAt,
      profile: run.profile,
      iterations: run.iterations,
      complete: run.complete,
      commit: results.caller?.commit ?? results.suite.commit ?? null,
    },
    runner: { name: results.runner.name, labels: results.runner.labels, machineType: results.runner.machineType },
    // A workload run's cost per job, as the reports compute it: the site opens with the same sentence.
    jobs: workloadCosts(results),
    host: results.host,
    engines: results.engines,
    environments: results.environments.map((/** @type {any} */ e) => ({
      key: e.key,
      name: e.name,
      engine: e.engine,
      status: e.status,
      reason: e.reason,
      facts: e.facts,
    })),
    unavailable: results.cells
      .filter((/** @type {any} */ c) => c.status !== 'ok')
      .map((/** @type {any} */ c) => ({
        benchmark: c.benchmark,
        environmentKey: c.environmentKey,
        distro: c.distro,
        status: c.status,
        reason: c.reason,
      })),
    rows: out.sort((a, b) =>
      `${a.benchmark}|${a.metric}|${a.distro}`.localeCompare(`${b.benchmark}|${b.metric}|${b.distro}`),
    ),
  };
}

/**
 * This run against the series' earlier runs, decided by the one verdict rule (the library defaults, as
 * `compare --history` without --config), so the site shows the word compare would.
 * @param {import('./points.js').StoredPoint} point @param {import('./points.js').StoredPoint[]} previous oldest first
 * @param {'higher'|'lower'} better
 */
export function trendOf(point, previous, better) {
  const v = judge(previous, { samples: point.samples, engines: point.engines }, better, DEFAULT_RULE);
  return {
    status: v.status,
    change: v.change,
    p: v.p,
    pastRuns: v.pastRuns,
    pastMedian: v.pastMedian,
    reason: v.reason,
    engineChange: v.engineChange,
  };
}
