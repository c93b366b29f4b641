// The overview of one run, precomputed at publish time so the site's first screen loads one small file:
// per benchmark, metric and distro, each environment's median with its interval, each environment
// against plain Docker (ratio of medians with interval, Cliff's delta, and the word `compare` reads it
// as: ../model/change.js), and each series against its own previous runs on the same hardware: the
// verdict `compare --history` gives (../stats/verdicts.js), over the same window of earlier runs.
import { readRun } from '../reading/read-run.js';
import { defaultThreshold } from '../model/change.js';
import { judgeSeries } from '../reading/history.js';
import { DEFAULT_RULE, pastWindow } from '../stats/verdicts.js';
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
  // The run's one Reading (../reading/read-run.js): the same answer table, comparisons and outcomes
  // `compare` and report.md lay out.
  const reading = readRun(results);
  const comparisons = reading.comparisons;
  for (const row of rows) row.vsDocker = vsDockerOf(row, comparisons);
  return {
    format: 'dind-bench-overview',
    // 2: `trend` is the verdict of ../stats/verdicts.js (status, change, p, pastRuns, reason).
    // 3: `vsDocker[env].verdict` is compare's within-run word (worse, better, no diff, too few), with its p.
    // 4: `trend.detectable`, the smallest change the series' history lets a run detect.
    // 5: the four outcomes: `vsDocker[env].verdict` is regression, improvement, equivalent or inconclusive
    //    (with q and threshold), `trend.status` equivalent or inconclusive where it was "no change", and
    //    `answers`, the run's answer sentences (report.md's).
    // 6: `modes`, the mode table (src/reading/modes.js: each environment's isolation facts with their
    //    evidence, start-up, workload cost, verdicts against docker, failure rate; the policy's answer).
    // 7: `answer`, the Reading's answer (intro, the answer table, caveats, questions), which the site opens
    //    with as every report does; `answers` (the sentences of version 5-6) is gone.
    // 8: `answer.parts`, a workload job's parts (pulls, builds, compose up, its test, steps) with their
    //    intervals (src/reading/parts.js), as the reports lay them out below the answer.
    version: 8,
    modes: reading.modes,
    answer: {
      intro: reading.intro,
      leftOut: reading.leftOut,
      table: reading.table,
      caveats: reading.caveats,
      questions: reading.questions,
      decided: reading.decided,
      cost: reading.cost,
      parts: reading.parts,
    },
    run: runOf(results),
    runner: { name: results.runner.name, labels: results.runner.labels, machineType: results.runner.machineType },
    // A workload run's cost per job, as the reports compute it: the site opens with the same sentence.
    jobs: reading.jobs,
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
      trend: trendOf(point, prev, series.better, defaultThreshold(series.benchmark)),
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
 * Each environment of a row against Docker, from the run's reading, so the site shows compare's outcome.
 * Native is read from the Docker-vs-native comparison, turned round (native against Docker).
 * @param {WorkingRow} row @param {import('../reading/index.js').Comparison[]} comparisons
 * @returns {OverviewRow['vsDocker']}
 */
function vsDockerOf(row, comparisons) {
  /** @type {OverviewRow['vsDocker']} */
  const out = {};
  if (!row.envs.docker) return out;
  for (const c of comparisons) {
    if (c.benchmark !== row.benchmark || c.metric !== row.metric) continue;
    if (c.kind === 'dind-vs-docker' && c.candidate.distro === row.distro && row.envs[c.candidate.env])
      out[c.candidate.env] = entryOf(c);
    if (c.kind === 'docker-vs-native' && c.candidate.distro === row.distro && row.envs.native)
      out.native = turnedRound(entryOf(c));
  }
  return out;
}

/** @param {import('../reading/index.js').Comparison} c @returns {import('#model/overview.js').VsDocker} */
const entryOf = (c) => ({
  ...c.ratio,
  p: c.p,
  q: c.q,
  delta: c.cliffsDelta,
  magnitude: c.magnitude,
  threshold: c.threshold,
  verdict: c.outcome,
  significant: c.significant,
  testable: c.testable,
  // What this run could detect against Docker (the site's overview shows it per metric).
  detectable: { change: c.detectable.change, iterationsFor5Pct: c.detectable.iterationsFor5Pct },
});

/** Docker against native as native against Docker: the ratio inverted, the outcome mirrored. @param {import('#model/overview.js').VsDocker} e */
function turnedRound(e) {
  const mirror = /** @type {const} */ ({ regression: 'improvement', improvement: 'regression' });
  const verdict = e.verdict === 'regression' || e.verdict === 'improvement' ? mirror[e.verdict] : e.verdict;
  return { ...e, ratio: 1 / e.ratio, low: 1 / e.high, high: 1 / e.low, delta: -e.delta, verdict };
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
 * @param {'higher'|'lower'} better @param {number} threshold T of the metric's family
 */
export function trendOf(point, previous, better, threshold) {
  const v = judgeSeries(previous, { samples: point.samples, engines: point.engines }, better, DEFAULT_RULE, threshold);
  // What this history lets a run like this one detect (compare --history prints the same beside its verdict).
  const d = v.detectable;
  return {
    status: v.status,
    change: v.change,
    p: v.p,
    pastRuns: v.pastRuns,
    pastMedian: v.pastMedian,
    reason: v.reason,
    engineChange: v.engineChange,
    threshold,
    detectable: { change: d.change, iterationsFor5Pct: d.iterationsFor5Pct },
  };
}
