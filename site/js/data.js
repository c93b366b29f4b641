// Loading the history's files. Everything goes through getJson, which caches, so a file is fetched
// once per page whatever number of charts need it; shards are fetched only when a chart needs them.
// Each file has its reader below, typed by src/model/: publish wrote and validated these files, the page
// takes their shapes as given and escapes every string it prints.
const meta = /** @type {HTMLMetaElement|null} */ (document.querySelector('meta[name="dind-bench-data"]'));
const ROOT = meta && !meta.content.includes('%') ? meta.content : 'data/';

/**
 * @typedef {import('#model/history.js').HistoryIndex} HistoryIndex
 * @typedef {import('#model/history.js').Latest} Latest
 * @typedef {import('#model/history.js').Shard} Shard
 * @typedef {import('#model/history.js').Catalog} Catalog
 * @typedef {import('#model/overview.js').Overview} Overview
 */

/** @type {Map<string, Promise<unknown>>} */
const cache = new Map();

/** The URL of a history file, for links and downloads. @param {string} rel */
export const dataUrl = (rel) => ROOT + rel;

/** @param {string} rel a path inside the history @returns {Promise<unknown>} */
function getJson(rel) {
  if (!cache.has(rel)) {
    cache.set(
      rel,
      fetch(dataUrl(rel)).then((r) => {
        if (!r.ok) throw new Error(`${rel}: HTTP ${r.status}`);
        return r.json();
      }),
    );
  }
  return /** @type {Promise<unknown>} */ (cache.get(rel));
}

/** Each runner's newest run (latest.json). */
export const getLatest = () => /** @type {Promise<Latest>} */ (getJson('latest.json'));
/** The series and their shards (index.json). */
export const getIndex = () => /** @type {Promise<HistoryIndex>} */ (getJson('index.json'));
/** A run's full results.json (the memory chart's samples). @param {string} file */
export const getResults = (file) => /** @type {Promise<import('#model/results.js').Results>} */ (getJson(file));
/** A run's overview, as latest.json names it. @param {string} file */
export const getOverview = (file) => /** @type {Promise<Overview>} */ (getJson(file));

/**
 * The points of one series from `since` (ISO date, or null for all), reading only the monthly shards
 * that can hold them.
 * @param {{dir: string, periods: string[]}} series @param {string|null} since
 */
export async function seriesPoints(series, since) {
  const periods = series.periods.filter((p) => !since || p >= since.slice(0, 7));
  const shards = await Promise.all(
    periods.map((p) => /** @type {Promise<Shard>} */ (getJson(`${series.dir}/${p}.json`))),
  );
  return shards.flatMap((s) => s.points).filter((p) => !since || p.time >= since);
}

/** The run with `runId` from its month's catalog. @param {string} runId @param {string} time */
export async function runEntry(runId, time) {
  const catalog = /** @type {Catalog} */ (await getJson(`runs/${time.slice(0, 7)}/catalog.json`));
  return catalog.runs.find((r) => r.runId === runId);
}
