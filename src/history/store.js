// The history store: open a history folder, list its series, read a series' points. This is the read
// API other commands use (`compare --history`); appending lives in ./append.js. See ./layout.js for
// the files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HistoryError, LINK_PROBLEM, exists, readJsonIn } from './files.js';
import { pendingPuts } from './journal.js';
import { FORMAT, FORMAT_VERSION, INDEX_FILE, LATEST_FILE, MARKER_FILE, seriesDir, shardPath } from './layout.js';
import { checkName, checkPeriod, getOwn } from './names.js';
import { seriesKey } from './points.js';

export { HistoryError } from './files.js';
export { seriesKey } from './points.js';

export const SHARD_FORMAT = 'dind-bench-series';

/**
 * @typedef {import('#model/history.js').SeriesInfo} SeriesInfo
 * @typedef {import('#model/history.js').IndexedSeries} IndexedSeries
 * @typedef {import('#model/history.js').HistoryIndex} HistoryIndex
 * @typedef {import('#model/history.js').Point} Point
 */

/** An empty index, as a new history starts. @returns {HistoryIndex} */
export const emptyIndex = () => ({
  format: FORMAT,
  version: FORMAT_VERSION,
  updatedAt: new Date(0).toISOString(),
  runs: 0,
  periods: [],
  series: {},
});

/**
 * Checks the marker that says `dir` is a dind-bench history of a format this code reads.
 * @param {string} dir
 */
export async function checkMarker(dir) {
  const file = path.join(dir, MARKER_FILE);
  if ((await fs.lstat(file).catch(() => null))?.isSymbolicLink()) throw new HistoryError(file, LINK_PROBLEM);
  if (!(await exists(file))) {
    if (!(await exists(dir))) {
      throw new HistoryError(dir, `no history here; \`dind-bench publish RESULTS --history ${dir}\` creates one`);
    }
    throw new HistoryError(
      file,
      `missing: ${dir} is not a dind-bench history (publish into an empty or new folder to start one)`,
    );
  }
  const marker = await readJsonIn(dir, MARKER_FILE, 'history marker');
  if (marker?.format !== FORMAT)
    throw new HistoryError(file, `not a dind-bench history marker (format ${JSON.stringify(marker?.format)})`);
  if (marker.version !== FORMAT_VERSION) {
    throw new HistoryError(
      file,
      `history format version ${marker.version}; this dind-bench reads version ${FORMAT_VERSION}`,
    );
  }
  return marker;
}

/**
 * Reads a history file, or the staged new version of it when a committed publish is being applied
 * (see ./journal.js), so a reader sees either the state before a publish or the state after it.
 * @param {string} dir @param {Map<string, string>} pending @param {string} rel @param {string} what
 * @template T @param {{ fallback?: T }} [options] what a missing file reads as
 */
export async function readStored(dir, pending, rel, what, options = {}) {
  const staged = pending.get(rel);
  if (staged) {
    try {
      return await readJsonIn(dir, staged, what);
    } catch (e) {
      // Renamed into place meanwhile: the file itself is now the new version.
      if (/** @type {{cause?: {code?: string}}} */ (e).cause?.code !== 'ENOENT') throw e;
    }
  }
  return readJsonIn(dir, rel, what, options);
}

/** @param {string} dir @returns {Promise<HistoryIndex>} */
export async function readIndex(dir, pending = new Map()) {
  const file = path.join(dir, INDEX_FILE);
  const index = await readStored(dir, pending, INDEX_FILE, 'history index');
  const series = index?.series;
  if (
    index?.format !== FORMAT ||
    index.version !== FORMAT_VERSION ||
    typeof series !== 'object' ||
    series === null ||
    Array.isArray(series) ||
    !Array.isArray(index.periods)
  ) {
    throw new HistoryError(file, `not a dind-bench history index of version ${FORMAT_VERSION}`);
  }
  for (const p of index.periods) checkPeriod(file, p);
  for (const [key, s] of Object.entries(series)) checkIndexedSeries(file, key, s);
  return index;
}

const MAX_PERIODS = 1200; // a hundred years of months

/**
 * Nothing in the index is trusted: each series' names are checked, its key must be the key of its
 * fields, and its folder must be the one this code derives from them (never a path read from the file).
 * @param {string} file @param {string} key @param {any} s an entry of an untrusted file: any, every field is checked here before use
 */
function checkIndexedSeries(file, key, s) {
  const bad = (/** @type {string} */ problem) =>
    new HistoryError(
      file,
      `series ${JSON.stringify(key.slice(0, 200))}: ${problem}; the index was edited or damaged, restore it from the branch the history lives in`,
    );
  if (typeof s !== 'object' || s === null) throw bad('is not an object');
  for (const f of ['fingerprint', 'runner', 'benchmark', 'metric', 'environmentKey', 'distro'])
    checkName(file, `series field ${f}`, s[f]);
  if (typeof s.unit !== 'string' || s.unit.length > 64 || (s.better !== 'higher' && s.better !== 'lower'))
    throw bad('has no valid unit or direction');
  if (seriesKey(s) !== key) throw bad('its key is not the key of its fields');
  if (s.dir !== seriesDir(s))
    throw bad(
      `its folder ${JSON.stringify(String(s.dir).slice(0, 200))} is not ${seriesDir(s)}, where this dind-bench keeps it`,
    );
  for (const list of [s.periods, s.archived ?? []]) {
    if (!Array.isArray(list) || list.length > MAX_PERIODS) throw bad('periods is not a list of months');
    for (const p of list) checkPeriod(file, p);
  }
}

/**
 * A shard's points, checked: the right format, the right series, points in time order.
 * @param {string} dir the history @param {string} rel the shard's path in it @param {string} key the series
 * @returns {Promise<import('./points.js').StoredPoint[]>}
 */
export async function readShard(dir, rel, key, { missingOk = false, pending = new Map() } = {}) {
  const file = path.join(dir, rel);
  const shard = await readStored(dir, pending, rel, 'series shard', missingOk ? { fallback: null } : {});
  if (shard === null) return [];
  if (shard?.format !== SHARD_FORMAT || shard.key !== key || !Array.isArray(shard.points)) {
    throw new HistoryError(
      file,
      `not the shard of series ${key} (format ${JSON.stringify(shard?.format)}, key ${JSON.stringify(shard?.key)})`,
    );
  }
  for (const [i, p] of shard.points.entries()) {
    if (typeof p?.runId !== 'string' || typeof p.time !== 'string' || !Array.isArray(p.samples)) {
      throw new HistoryError(file, `point ${i} lacks runId, time or samples`);
    }
  }
  return shard.points;
}

export class History {
  /** @param {string} dir @param {HistoryIndex} index @param {Map<string, string>} [pending] */
  constructor(dir, index, pending = new Map()) {
    this.dir = dir;
    this.index = index;
    this.pending = pending;
  }

  /** @returns {SeriesInfo[]} */
  listSeries() {
    return Object.entries(this.index.series).map(([key, s]) => ({
      key,
      fingerprint: s.fingerprint,
      runner: s.runner,
      benchmark: s.benchmark,
      metric: s.metric,
      environmentKey: s.environmentKey,
      distro: s.distro,
      unit: s.unit,
      better: s.better,
    }));
  }

  /**
   * The series' points, oldest first; with `limit`, only the latest `limit`. Reads shards newest first
   * and stops as soon as it has enough, so a short window costs the same however long the history.
   * Archived shards are not read.
   * @param {string} key @param {{ limit?: number }} [opts] @returns {Promise<Point[]>}
   */
  async readSeries(key, { limit = Infinity } = {}) {
    const s = getOwn(this.index.series, key);
    if (!s) throw new HistoryError(path.join(this.dir, INDEX_FILE), `no series ${key}`);
    /** @type {import('./points.js').StoredPoint[]} */
    let points = [];
    for (const period of [...s.periods].sort().reverse()) {
      points = [
        ...(await readShard(this.dir, shardPath(seriesDir(s), period), key, { pending: this.pending })),
        ...points,
      ];
      if (points.length >= limit) break;
    }
    const kept = Number.isFinite(limit) ? points.slice(-limit) : points;
    return kept.map((p) => ({
      runId: p.runId,
      time: p.time,
      commit: p.commit,
      samples: p.samples,
      unit: s.unit,
      better: s.better,
      engines: p.engines,
      storageDriver: p.storageDriver,
      runner: p.runner,
      summary: p.summary,
    }));
  }

  /** The runners and the overview file of each one's newest run. */
  async latest() {
    return readStored(this.dir, this.pending, LATEST_FILE, 'latest-runs file', { fallback: { runners: {} } });
  }
}

/**
 * Opens an existing history. Throws HistoryError naming the file and the problem when the folder is
 * missing, foreign or corrupt; nothing is ever changed by opening.
 * @param {string} dir @returns {Promise<History>}
 */
export async function openHistory(dir) {
  await checkMarker(dir);
  const pending = await pendingPuts(dir);
  return new History(dir, await readIndex(dir, pending), pending);
}
