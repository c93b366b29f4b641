// The history store: open a history folder, list its series, read a series' points. This is the read
// API other commands use (`compare --history`); appending lives in ./append.js. See ./layout.js for
// the files.
import path from 'node:path';
import { HistoryError, exists, readJson } from './files.js';
import { FORMAT, FORMAT_VERSION, INDEX_FILE, LATEST_FILE, MARKER_FILE, shardPath } from './layout.js';

export { HistoryError } from './files.js';
export { seriesKey } from './points.js';

export const SHARD_FORMAT = 'dind-bench-series';

/**
 * @typedef {import('./points.js').SeriesInfo} SeriesInfo
 * @typedef {SeriesInfo & { dir: string, periods: string[], archived: string[], points: number, last: string }} IndexedSeries
 * @typedef {{ format: string, version: number, updatedAt: string, runs: number, periods: string[],
 *   series: Record<string, IndexedSeries> }} HistoryIndex
 * @typedef {{ runId: string, time: string, commit: string | null, samples: number[], unit: string,
 *   better: 'higher' | 'lower', engines: { outer: string, inner: string | null }, storageDriver: string | null,
 *   runner: string, summary?: import('./points.js').Summary }} Point
 */

/** An empty index, as a new history starts. @returns {HistoryIndex} */
export const emptyIndex = () => ({ format: FORMAT, version: FORMAT_VERSION, updatedAt: new Date(0).toISOString(), runs: 0, periods: [], series: {} });

/**
 * Checks the marker that says `dir` is a dind-bench history of a format this code reads.
 * @param {string} dir
 */
export async function checkMarker(dir) {
  const file = path.join(dir, MARKER_FILE);
  if (!(await exists(file))) {
    if (!(await exists(dir))) {
      throw new HistoryError(dir, `no history here; \`dind-bench publish RESULTS --history ${dir}\` creates one`);
    }
    throw new HistoryError(file, `missing: ${dir} is not a dind-bench history (publish into an empty or new folder to start one)`);
  }
  const marker = await readJson(file, 'history marker');
  if (marker?.format !== FORMAT) throw new HistoryError(file, `not a dind-bench history marker (format ${JSON.stringify(marker?.format)})`);
  if (marker.version !== FORMAT_VERSION) {
    throw new HistoryError(file, `history format version ${marker.version}; this dind-bench reads version ${FORMAT_VERSION}`);
  }
  return marker;
}

/** @param {string} dir @returns {Promise<HistoryIndex>} */
export async function readIndex(dir) {
  const file = path.join(dir, INDEX_FILE);
  const index = await readJson(file, 'history index');
  if (index?.format !== FORMAT || index.version !== FORMAT_VERSION || typeof index.series !== 'object' || !Array.isArray(index.periods)) {
    throw new HistoryError(file, `not a dind-bench history index of version ${FORMAT_VERSION}`);
  }
  return index;
}

/**
 * A shard's points, checked: the right format, the right series, points in time order.
 * @param {string} dir the history @param {string} rel the shard's path in it @param {string} key the series
 * @returns {Promise<import('./points.js').StoredPoint[]>}
 */
export async function readShard(dir, rel, key, { missingOk = false } = {}) {
  const file = path.join(dir, rel);
  const shard = await readJson(file, 'series shard', missingOk ? { fallback: null } : {});
  if (shard === null) return [];
  if (shard?.format !== SHARD_FORMAT || shard.key !== key || !Array.isArray(shard.points)) {
    throw new HistoryError(file, `not the shard of series ${key} (format ${JSON.stringify(shard?.format)}, key ${JSON.stringify(shard?.key)})`);
  }
  for (const [i, p] of shard.points.entries()) {
    if (typeof p?.runId !== 'string' || typeof p.time !== 'string' || !Array.isArray(p.samples)) {
      throw new HistoryError(file, `point ${i} lacks runId, time or samples`);
    }
  }
  return shard.points;
}

export class History {
  /** @param {string} dir @param {HistoryIndex} index */
  constructor(dir, index) {
    this.dir = dir;
    this.index = index;
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
    const s = this.index.series[key];
    if (!s) throw new HistoryError(path.join(this.dir, INDEX_FILE), `no series ${key}`);
    /** @type {import('./points.js').StoredPoint[]} */
    let points = [];
    for (const period of [...s.periods].sort().reverse()) {
      points = [...(await readShard(this.dir, shardPath(s.dir, period), key)), ...points];
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
    return readJson(path.join(this.dir, LATEST_FILE), 'latest-runs file', { fallback: { runners: {} } });
  }
}

/**
 * Opens an existing history. Throws HistoryError naming the file and the problem when the folder is
 * missing, foreign or corrupt; nothing is ever changed by opening.
 * @param {string} dir @returns {Promise<History>}
 */
export async function openHistory(dir) {
  await checkMarker(dir);
  return new History(dir, await readIndex(dir));
}
