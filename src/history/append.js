// Appending to a history: `publishRun` for a results.json, `appendRun` for any source of points (the
// github-action-benchmark import uses it too). Append-only and idempotent:
//   1. everything that will change is read and checked first; a corrupt file stops the append before
//      anything is written, naming the file;
//   2. each file is rewritten whole through a temp file + rename, under a lock, so concurrent publishes
//      queue instead of losing each other's points;
//   3. the run's own file is written last: it marks the run as published. A publish killed half-way is
//      completed by publishing the same run again (points already in a shard are not added twice).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { RESULTS_ADVICE } from '../compare/load-results.js';
import { readJsonFile } from '../results/read-json.js';
import { validateResults } from '../results/schema.js';
import { HistoryError, copyOnce, exists, readJson, withLock, writeJsonAtomic } from './files.js';
import {
  FORMAT, FORMAT_VERSION, INDEX_FILE, LATEST_FILE, LOCK_FILE, MARKER_FILE, latestPath, runCatalogPath, runPath, seriesDir, shardPath,
} from './layout.js';
import { TREND_WINDOW, overviewOf } from './overview.js';
import { pointsOf, runInfo } from './points.js';
import { SHARD_FORMAT, checkMarker, emptyIndex, readIndex, readShard } from './store.js';
import { summarizePoint } from './summary.js';

export const CATALOG_FORMAT = 'dind-bench-runs';

/**
 * Reads, validates and appends DIR/results.json to the history in `dir` (created when missing or empty).
 * @param {string} dir @param {string} resultsFile
 * @returns {Promise<{ runId: string, duplicate: boolean, points: number, series: number }>}
 */
export async function publishRun(dir, resultsFile) {
  const doc = await readJsonFile(resultsFile, { what: 'results file', advice: RESULTS_ADVICE });
  const results = validateResults(doc, resultsFile);
  const run = runInfo(results);
  return appendRun(dir, {
    run,
    points: pointsOf(results),
    overview: (/** @type {any} */ points, /** @type {any} */ prev) => overviewOf(results, points, prev),
    writeProvenance: (/** @type {string} */ to) => copyOnce(resultsFile, to),
  });
}

/**
 * @typedef {ReturnType<typeof runInfo>} RunInfo
 * @typedef {{ run: RunInfo, points: import('./points.js').SeriesPoint[],
 *   overview?: (points: import('./points.js').SeriesPoint[], prev: (key: string) => number[][]) => any,
 *   writeProvenance: (to: string) => Promise<void> }} Append
 */

/** @param {string} dir @param {Append} append */
export async function appendRun(dir, append) {
  await fs.mkdir(dir, { recursive: true });
  return withLock(path.join(dir, LOCK_FILE), () => appendLocked(dir, append));
}

/** @param {string} dir @param {Append} append */
async function appendLocked(dir, { run, points, overview, writeProvenance }) {
  const isNew = await startsEmpty(dir);
  if (!isNew) await checkMarker(dir);
  const runFile = runPath(run.period, run.runId);
  const done = { runId: run.runId, points: 0, series: new Set(points.map((p) => p.series.key)).size };
  if (await exists(path.join(dir, runFile)) || (await exists(path.join(dir, 'archive', runFile)))) return { ...done, duplicate: true };

  // Each point's summary is computed once, here, and shared by its shard and the overview.
  for (const p of points) p.point.summary ??= summarizePoint(p.point.samples);

  // -- read and check everything this append touches --
  const index = isNew ? emptyIndex() : await readIndex(dir);
  /** @type {Map<string, {key: string, points: import('./points.js').StoredPoint[], changed: boolean}>} */
  const shards = new Map();
  /** @type {Map<string, number[][]>} samples of each series' runs before this one, for the trend */
  const previous = new Map();
  for (const { series, point } of points) {
    const dirOf = index.series[series.key]?.dir ?? seriesDir(series);
    const rel = shardPath(dirOf, run.period);
    if (!shards.has(rel)) shards.set(rel, { key: series.key, points: await readShard(dir, rel, series.key, { missingOk: true }), changed: false });
    const shard = /** @type {any} */ (shards.get(rel));
    let before = shard.points.filter((/** @type {any} */ p) => p.time < point.time || (p.time === point.time && p.runId < point.runId));
    // Early in a month the previous month's shard holds the runs to compare with.
    const older = (index.series[series.key]?.periods ?? []).filter((p) => p < run.period).sort();
    if (before.length < TREND_WINDOW && older.length) {
      before = [...(await readShard(dir, shardPath(dirOf, older[older.length - 1]), series.key)), ...before];
    }
    previous.set(series.key, before.slice(-TREND_WINDOW).map((/** @type {any} */ p) => p.samples));
    if (!shard.points.some((/** @type {any} */ p) => p.runId === point.runId)) {
      shard.points.push(point);
      shard.points.sort((/** @type {any} */ a, /** @type {any} */ b) => a.time.localeCompare(b.time) || a.runId.localeCompare(b.runId));
      shard.changed = true;
      done.points++;
    }
  }
  const catalogFile = runCatalogPath(run.period);
  const catalog = await readJson(path.join(dir, catalogFile), 'run catalog', { fallback: { format: CATALOG_FORMAT, period: run.period, runs: [] } });
  if (catalog?.format !== CATALOG_FORMAT || !Array.isArray(catalog.runs)) throw new HistoryError(path.join(dir, catalogFile), 'not a run catalog');
  const latest = await readJson(path.join(dir, LATEST_FILE), 'latest-runs file', { fallback: { format: 'dind-bench-latest', runners: {} } });
  if (typeof latest?.runners !== 'object') throw new HistoryError(path.join(dir, LATEST_FILE), 'not a latest-runs file');

  // -- write: marker, shards, catalog, overview, index, and the run itself last --
  if (isNew) await writeJsonAtomic(path.join(dir, MARKER_FILE), { format: FORMAT, version: FORMAT_VERSION, created: new Date().toISOString() }, { pretty: true });
  for (const [rel, shard] of shards) {
    if (shard.changed) await writeJsonAtomic(path.join(dir, rel), { format: SHARD_FORMAT, key: shard.key, period: run.period, points: shard.points });
  }
  if (!catalog.runs.some((/** @type {any} */ r) => r.runId === run.runId)) {
    catalog.runs.push({ ...run, file: runFile });
    catalog.runs.sort((/** @type {any} */ a, /** @type {any} */ b) => a.time.localeCompare(b.time));
    await writeJsonAtomic(path.join(dir, catalogFile), catalog);
  }
  const current = latest.runners[run.fingerprint];
  if (overview && (!current || current.time <= run.time)) {
    const file = latestPath(run.fingerprint);
    await writeJsonAtomic(path.join(dir, file), overview(points, (key) => previous.get(key) ?? []));
    latest.runners[run.fingerprint] = { runner: run.runner, fingerprint: run.fingerprint, runId: run.runId, time: run.time, commit: run.commit, file, run: runFile };
    await writeJsonAtomic(path.join(dir, LATEST_FILE), latest, { pretty: true });
  }
  for (const { series } of points) {
    const s = (index.series[series.key] ??= { ...series, dir: seriesDir(series), periods: [], archived: [], points: 0, last: run.time });
    s.runner = series.runner;
    if (!s.periods.includes(run.period)) s.periods = [...s.periods, run.period].sort();
    if (run.time > s.last) s.last = run.time;
  }
  for (const [rel, shard] of shards) {
    if (!shard.changed) continue;
    // Counted from the shard, so re-running a half-done publish does not count a point twice.
    const s = index.series[shard.key];
    s.points = s.points + shard.points.filter((p) => p.runId === run.runId).length;
    void rel;
  }
  if (!index.periods.includes(run.period)) index.periods = [...index.periods, run.period].sort();
  index.runs += 1;
  index.updatedAt = new Date().toISOString();
  await writeJsonAtomic(path.join(dir, INDEX_FILE), index);
  await writeProvenance(path.join(dir, runFile));
  return { ...done, duplicate: false };
}

/** True when `dir` holds nothing but hidden entries (a fresh gh-pages checkout has `.git`). @param {string} dir */
async function startsEmpty(dir) {
  if (await exists(path.join(dir, MARKER_FILE))) return false;
  const entries = (await fs.readdir(dir)).filter((e) => !e.startsWith('.'));
  if (entries.length) {
    throw new HistoryError(
      path.join(dir, MARKER_FILE),
      `missing, and ${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}): not a dind-bench history; nothing was written. Publish into an empty or new folder`,
    );
  }
  return true;
}
