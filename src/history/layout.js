// Where everything lives in a history folder (the content of the gh-pages branch). One place, so the
// store, the site builder and the browser agree on paths:
//
//   dind-bench-history.json           marker: this folder is a dind-bench history, and its format version
//   index.json                        the series (one per runner hardware x benchmark x metric x environment x distro)
//                                     with their unit, direction and the periods that have a shard
//   latest.json                       the runners, each with its newest run and the file of its overview
//   latest/<fingerprint>.json         the overview of a runner's newest run (DinD overhead, trend), <= a few 100 KB
//   series/<fingerprint>/<benchmark>/<distro>/<environmentKey>/<metric>/<YYYY-MM>.json
//                                     one shard per series and month: the points (samples + precomputed summary)
//   runs/<YYYY-MM>/catalog.json       the runs published that month (id, time, commit, runner, engines)
//   runs/<YYYY-MM>/<runId>.json       each run's full results.json, kept for provenance
//   archive/...                       shards moved out by retention, same relative paths, never deleted
//
// Every name from data in a path goes through `safeSegment` (./names.js): injective, at most 41
// characters, lower-case ASCII, never a name Windows reserves; checked names only (see append.js).
//
// Shards are per month so that appending a run rewrites a handful of small files whatever the history's
// age, and a chart of the last months reads a handful of small files too.

import { nameSegment } from './names.js';

export const FORMAT = 'dind-bench-history';
export const FORMAT_VERSION = 1;
export const MARKER_FILE = 'dind-bench-history.json';
export const INDEX_FILE = 'index.json';
export const LATEST_FILE = 'latest.json';
export const LOCK_FILE = '.publish.lock';
export const ARCHIVE_DIR = 'archive';

/**
 * A path segment for a name from data, the same on every filesystem: see ./names.js (`nameSegment`).
 * @param {string} s
 */
export const safeSegment = (s) => nameSegment(String(s));

/** The month a run belongs to, from its ISO start time, in UTC: "2026-11". @param {string} iso */
export function periodOf(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new Error(`not a date: ${JSON.stringify(iso)}`);
  return d.toISOString().slice(0, 7);
}

/** @param {{fingerprint: string, benchmark: string, distro: string, environmentKey: string, metric: string}} s */
export const seriesDir = (s) =>
  ['series', ...[s.fingerprint, s.benchmark, s.distro, s.environmentKey, s.metric].map(safeSegment)].join('/');

/** @param {string} dir a series folder @param {string} period */
export const shardPath = (dir, period) => `${dir}/${period}.json`;

/**
 * The index entry of a series seen for the first time: publish adds it, and bench/site.js writes a year of
 * runs straight into a store with the same shape.
 * @param {import('./points.js').SeriesInfo} series @param {string} time the run's time
 */
export const newSeriesEntry = (series, time) => ({
  ...series,
  dir: seriesDir(series),
  periods: /** @type {string[]} */ ([]),
  archived: /** @type {string[]} */ ([]),
  points: 0,
  last: time,
});
/** @param {string} period */
export const runCatalogPath = (period) => `runs/${period}/catalog.json`;
/** @param {string} period @param {string} runId */
export const runPath = (period, runId) => `runs/${period}/${safeSegment(runId)}.json`;
/** @param {string} fingerprint */
export const latestPath = (fingerprint) => `latest/${safeSegment(fingerprint)}.json`;
