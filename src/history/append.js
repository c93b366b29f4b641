// Appending to a history: `publishRun` for a results.json, `appendRun` for any source of points (the
// github-action-benchmark import uses it too). Append-only and idempotent:
//   1. everything that will change is read and checked first; a corrupt file stops the append before
//      anything is written, naming the file;
//   2. every name and value is checked (./names.js) before anything is written;
//   3. every changed file is staged whole and committed at once through a journal (./journal.js),
//      under a lock, so concurrent publishes queue instead of losing each other's points, and a
//      publish killed at any point leaves the history as before it or as after it (completed by the
//      next publish); the run's own file says the run is published.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { RESULTS_ADVICE, readJsonFile } from '../results/read-json.js';
import { publicArgs, redact } from './redact.js';
import { validateResults } from '../results/schema.js';
import { HistoryError, readJsonIn, refuseLinks, withLock } from './files.js';
import { recoverHistory, transact } from './journal.js';
import {
  ARCHIVE_DIR,
  FORMAT,
  FORMAT_VERSION,
  INDEX_FILE,
  LATEST_FILE,
  LOCK_FILE,
  MARKER_FILE,
  latestPath,
  runCatalogPath,
  runPath,
  newSeriesEntry,
  seriesDir,
  shardPath,
} from './layout.js';
import { checkName, checkRunTime, getOwn, setOwn } from './names.js';
import { DEFAULT_RULE, pastWindow } from '../stats/verdicts.js';
import { overviewOf } from './overview.js';
import { pointsOf, runInfo } from './points.js';
import { SHARD_FORMAT, checkMarker, emptyIndex, readIndex, readShard } from './store.js';
import { summarizePoint } from './summary.js';

export const CATALOG_FORMAT = 'dind-bench-runs';

/**
 * Reads, validates and appends DIR/results.json to the history in `dir` (created when missing or empty).
 * @param {string} dir @param {string} resultsFile
 * @param {{ redact?: import('./redact.js').Redactable[] }} [opts] what a public site should not show (./redact.js);
 *   secrets' shapes are never published
 * @returns {Promise<{ runId: string, duplicate: boolean, points: number, series: number }>}
 */
export async function publishRun(dir, resultsFile, { redact: leaveOut = [] } = {}) {
  const read = await readJsonFile(resultsFile, { what: 'results file', advice: RESULTS_ADVICE });
  const valid = validateResults(read, resultsFile);
  // Whatever is left out, what is shaped like a secret is not published (redact() with nothing asked).
  const doc = publicArgs(redact(valid, leaveOut));
  const results = validateResults(doc, resultsFile);
  checkRunSize(resultsFile, results);
  // A partial run published now would make its finished version a duplicate (same run id), never added.
  const state = results.run.state ?? 'finished';
  if (state !== 'finished') {
    const resume = `dind-bench run --resume ${path.dirname(resultsFile)}`;
    const problem = `is a partial run (state ${state}): finish it with \`${resume}\` first; nothing was published`;
    throw new HistoryError(resultsFile, problem);
  }
  const run = runInfo(results);
  return appendRun(dir, {
    where: resultsFile,
    run,
    points: pointsOf(results),
    overview: (points, prev) => overviewOf(results, points, prev),
    provenance: doc,
  });
}

/**
 * @typedef {ReturnType<typeof runInfo>} RunInfo
 * @typedef {{ where: string, run: RunInfo, points: import('./points.js').SeriesPoint[],
 *   overview?: (points: import('./points.js').SeriesPoint[], prev: (key: string) => import('./points.js').StoredPoint[]) => import('#model/overview.js').Overview,
 *   provenance: unknown }} Append
 *   where: the file the run came from (named in errors); provenance: what runs/<month>/<id>.json keeps.
 */

// Bounds on what one publish may add, far above a real run (a standard run of the whole matrix has a
// few hundred cells of at most about 40 metrics: about 1,500 points of 10-60 samples). Each series is a
// file and five folders in the history, so a small hostile file with many tiny series would otherwise
// grow the history a hundredfold (4.9 MB of results made 50,000 series, 493 MB on disk). Checked before
// anything is written.
export const MAX_CELLS = 2_000;
export const MAX_METRICS_PER_CELL = 200;
export const MAX_POINTS = 20_000;
export const MAX_SERIES = 5_000;
export const MAX_SAMPLES = 10_000;
export const MAX_RUN_SAMPLES = 1_000_000;
// What to do when a bound is hit: said in every such message.
const TOO_LARGE_ADVICE =
  'nothing was written. A run of the whole matrix is far below this: check where the file came from; a genuine run this large must be published in parts (results files with a subset of its cells)';

/**
 * Refuses a results document with more cells, or a cell with more metrics, than any real run has.
 * @param {string} where @param {import('#model/results.js').Results} results a schema-valid results document
 */
function checkRunSize(where, results) {
  if (results.cells.length > MAX_CELLS)
    throw new HistoryError(
      where,
      `${results.cells.length} cells; at most ${MAX_CELLS} per publish; ${TOO_LARGE_ADVICE}`,
    );
  for (const [i, cell] of results.cells.entries()) {
    if (cell.metrics.length > MAX_METRICS_PER_CELL) {
      throw new HistoryError(
        where,
        `cell ${i} has ${cell.metrics.length} metrics; at most ${MAX_METRICS_PER_CELL} per cell; ${TOO_LARGE_ADVICE}`,
      );
    }
  }
}

/**
 * Checks every name and value of a run before anything is written (see ./names.js): a bad one is
 * refused with what, where and what to do, and the history stays as it was.
 * @param {Append} append
 */
export function checkAppend({ where, run, points }) {
  checkName(where, 'the run id', run.runId);
  checkName(where, 'the runner name', run.runner);
  checkName(where, 'the host fingerprint', run.fingerprint);
  if (run.commit !== null) checkName(where, 'the commit', run.commit);
  run.time = checkRunTime(where, 'the run start time', run.time);
  if (points.length > MAX_POINTS)
    throw new HistoryError(where, `${points.length} points in one run; at most ${MAX_POINTS}; ${TOO_LARGE_ADVICE}`);
  const series = new Set(points.map((p) => p.series.key)).size;
  if (series > MAX_SERIES) {
    throw new HistoryError(
      where,
      `${series} series in one run (each a file in the history); at most ${MAX_SERIES} per publish; ${TOO_LARGE_ADVICE}`,
    );
  }
  const samples = points.reduce((n, p) => n + (Array.isArray(p.point.samples) ? p.point.samples.length : 0), 0);
  if (samples > MAX_RUN_SAMPLES)
    throw new HistoryError(where, `${samples} samples in one run; at most ${MAX_RUN_SAMPLES}; ${TOO_LARGE_ADVICE}`);
  for (const { series, point } of points) {
    const what = `${JSON.stringify(series.benchmark).slice(0, 60)}/${JSON.stringify(series.metric).slice(0, 60)}:`;
    for (const f of /** @type {const} */ (['benchmark', 'metric', 'environmentKey', 'distro']))
      checkName(where, `the ${f} of a series`, series[f]);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (typeof series.unit !== 'string' || series.unit.length > 64 || /[\u0000-\u001f]/.test(series.unit)) {
      throw new HistoryError(where, `${what} the unit is not a short line of text; nothing was written`);
    }
    const n = point.samples.length;
    if (n === 0 || n > MAX_SAMPLES)
      throw new HistoryError(where, `${what} ${n} samples; 1 to ${MAX_SAMPLES} are accepted; nothing was written`);
    if (!point.samples.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new HistoryError(where, `${what} a sample is not a finite number; nothing was written`);
    }
  }
}

/** @param {string} dir @param {Append} append */
export async function appendRun(dir, append) {
  checkAppend(append);
  await fs.mkdir(dir, { recursive: true });
  return withLock(path.join(dir, LOCK_FILE), () => appendLocked(dir, append));
}

/** @param {string} rel @param {string} dir */
const present = async (dir, rel) => {
  await refuseLinks(dir, rel);
  return fs.lstat(path.join(dir, rel)).then(
    () => true,
    () => false,
  );
};

/** @param {string} dir @param {Append} append */
async function appendLocked(dir, { run, points, overview, provenance }) {
  // A publish killed after its commit point is completed first (see ./journal.js).
  await recoverHistory(dir);
  const isNew = await startsEmpty(dir);
  if (!isNew) await checkMarker(dir);
  const runFile = runPath(run.period, run.runId);
  const done = { runId: run.runId, points: 0, series: new Set(points.map((p) => p.series.key)).size };
  if ((await present(dir, runFile)) || (await present(dir, `${ARCHIVE_DIR}/${runFile}`)))
    return { ...done, duplicate: true };

  // Each point's summary is computed once, here, and shared by its shard and the overview.
  for (const p of points) p.point.summary ??= summarizePoint(p.point.samples);

  // -- read and check everything this append touches --
  const index = isNew ? emptyIndex() : await readIndex(dir);
  const { shards, previous, added } = await shardsWith(dir, index, run.period, points);
  done.points = added;
  const { catalogFile, catalog, latest } = await readCatalogAndLatest(dir, run.period);

  // -- stage every change, then commit them at once: marker, shards, run, catalog, overview, index --
  // (a failure before the commit point removes what was staged: transact)
  await transact(dir, async (tx) => {
    if (isNew)
      await tx.put(
        MARKER_FILE,
        { format: FORMAT, version: FORMAT_VERSION, created: new Date().toISOString() },
        { pretty: true },
      );
    for (const [rel, shard] of shards) {
      if (shard.changed)
        await tx.put(rel, { format: SHARD_FORMAT, key: shard.key, period: run.period, points: shard.points });
    }
    await tx.put(runFile, provenance);
    if (!catalog.runs.some((/** @type {{runId: string}} */ r) => r.runId === run.runId)) {
      catalog.runs.push({ ...run, file: runFile });
      catalog.runs.sort((/** @type {{time: string}} */ a, /** @type {{time: string}} */ b) =>
        a.time.localeCompare(b.time),
      );
      await tx.put(catalogFile, catalog);
    }
    if (overview) await stageLatest(tx, latest, run, runFile, () => overview(points, (key) => previous.get(key) ?? []));
    updateIndex(index, run, points, shards);
    await tx.put(INDEX_FILE, index);
  });
  return { ...done, duplicate: false };
}

/**
 * @typedef {{key: string, points: import('./points.js').StoredPoint[], changed: boolean}} ShardState
 */

/**
 * The month's shard of every series of this run with the run's point added (once), and each series' runs
 * before this one, over the verdict's window, for the trend; `added` counts the points new to the history.
 * @param {string} dir @param {import('./store.js').HistoryIndex} index @param {string} period
 * @param {import('./points.js').SeriesPoint[]} points
 */
async function shardsWith(dir, index, period, points) {
  /** @type {Map<string, ShardState>} */
  const shards = new Map();
  /** @type {Map<string, import('./points.js').StoredPoint[]>} */
  const previous = new Map();
  let added = 0;
  for (const { series, point } of points) {
    // The folder is derived from the series' names, never read from the index.
    const dirOf = seriesDir(series);
    const rel = shardPath(dirOf, period);
    const shard = shards.get(rel) ?? {
      key: series.key,
      points: await readShard(dir, rel, series.key, { missingOk: true }),
      changed: false,
    };
    shards.set(rel, shard);
    let before = shard.points.filter((p) => p.time < point.time || (p.time === point.time && p.runId < point.runId));
    // Early in a month (or with a long window) earlier months' shards hold the runs to compare with.
    const older = (getOwn(index.series, series.key)?.periods ?? [])
      .filter((/** @type {string} */ p) => p < period)
      .sort();
    while (pastWindow(before).length < DEFAULT_RULE.window && older.length) {
      before = [
        ...(await readShard(dir, shardPath(dirOf, /** @type {string} */ (older.pop())), series.key)),
        ...before,
      ];
    }
    previous.set(series.key, pastWindow(before));
    if (!shard.points.some((p) => p.runId === point.runId)) {
      shard.points.push(point);
      shard.points.sort((a, b) => a.time.localeCompare(b.time) || a.runId.localeCompare(b.runId));
      shard.changed = true;
      added++;
    }
  }
  return { shards, previous, added };
}

/** The month's run catalog and latest.json, each checked for its shape (new ones where there are none). @param {string} dir @param {string} period */
async function readCatalogAndLatest(dir, period) {
  const catalogFile = runCatalogPath(period);
  const catalog = await readJsonIn(dir, catalogFile, 'run catalog', {
    fallback: { format: CATALOG_FORMAT, period, runs: [] },
  });
  if (catalog?.format !== CATALOG_FORMAT || !Array.isArray(catalog.runs))
    throw new HistoryError(path.join(dir, catalogFile), 'not a run catalog');
  const latest = await readJsonIn(dir, LATEST_FILE, 'latest-runs file', {
    fallback: { format: 'dind-bench-latest', runners: {} },
  });
  if (typeof latest?.runners !== 'object' || latest.runners === null)
    throw new HistoryError(path.join(dir, LATEST_FILE), 'not a latest-runs file');
  return { catalogFile, catalog, latest };
}

/**
 * The runner's overview and its line in latest.json, unless a newer run of the runner is there already.
 * @param {import('./journal.js').Transaction} tx @param {import('#model/history.js').Latest} latest latest.json, its shape checked @param {RunInfo} run @param {string} runFile
 * @param {() => unknown} overview
 */
async function stageLatest(tx, latest, run, runFile, overview) {
  const current = getOwn(latest.runners, run.fingerprint);
  if (current && current.time > run.time) return;
  const file = latestPath(run.fingerprint);
  await tx.put(file, overview());
  setOwn(latest.runners, run.fingerprint, {
    runner: run.runner,
    fingerprint: run.fingerprint,
    runId: run.runId,
    time: run.time,
    commit: run.commit,
    file,
    run: runFile,
  });
  await tx.put(LATEST_FILE, latest, { pretty: true });
}

/**
 * The index after this run: each series' runner, periods, last time and point count, the history's periods and runs.
 * @param {import('./store.js').HistoryIndex} index @param {RunInfo} run
 * @param {import('./points.js').SeriesPoint[]} points @param {Map<string, ShardState>} shards
 */
function updateIndex(index, run, points, shards) {
  for (const { series } of points) {
    const s = getOwn(index.series, series.key) ?? setOwn(index.series, series.key, newSeriesEntry(series, run.time));
    s.runner = series.runner;
    if (!s.periods.includes(run.period)) s.periods = [...s.periods, run.period].sort();
    if (run.time > s.last) s.last = run.time;
  }
  for (const shard of shards.values()) {
    if (!shard.changed) continue;
    // Every series with a changed shard got its entry in the loop above.
    const s = /** @type {import('./store.js').HistoryIndex['series'][string]} */ (getOwn(index.series, shard.key));
    s.points += shard.points.filter((p) => p.runId === run.runId).length;
  }
  if (!index.periods.includes(run.period)) index.periods = [...index.periods, run.period].sort();
  index.runs += 1;
  index.updatedAt = new Date().toISOString();
}

/** True when `dir` holds nothing but hidden entries (a fresh gh-pages checkout has `.git`). @param {string} dir */
async function startsEmpty(dir) {
  // lstat, not exists: a marker that is a (dangling) link is not a new history; checkMarker refuses it.
  if (
    await fs.lstat(path.join(dir, MARKER_FILE)).then(
      () => true,
      () => false,
    )
  )
    return false;
  const entries = (await fs.readdir(dir)).filter((e) => !e.startsWith('.'));
  if (entries.length) {
    throw new HistoryError(
      path.join(dir, MARKER_FILE),
      `missing, and ${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}): not a dind-bench history; nothing was written. Publish into an empty or new folder`,
    );
  }
  return true;
}
