// Loading the history's files. Everything goes through getJson, which caches, so a file is fetched
// once per page whatever number of charts need it; shards are fetched only when a chart needs them.
const meta = /** @type {HTMLMetaElement|null} */ (document.querySelector('meta[name="dind-bench-data"]'));
const ROOT = meta && !meta.content.includes('%') ? meta.content : 'data/';

/** @type {Map<string, Promise<any>>} */
const cache = new Map();

/** The URL of a history file, for links and downloads. @param {string} rel */
export const dataUrl = (rel) => ROOT + rel;

/** @param {string} rel a path inside the history @returns {Promise<any>} */
export function getJson(rel) {
  if (!cache.has(rel)) {
    cache.set(
      rel,
      fetch(dataUrl(rel)).then((r) => {
        if (!r.ok) throw new Error(`${rel}: HTTP ${r.status}`);
        return r.json();
      }),
    );
  }
  return /** @type {Promise<any>} */ (cache.get(rel));
}

/**
 * The points of one series from `since` (ISO date, or null for all), reading only the monthly shards
 * that can hold them.
 * @param {{dir: string, periods: string[]}} series @param {string|null} since
 */
export async function seriesPoints(series, since) {
  const periods = series.periods.filter((p) => !since || p >= since.slice(0, 7));
  const shards = await Promise.all(periods.map((p) => getJson(`${series.dir}/${p}.json`)));
  return shards.flatMap((s) => s.points).filter((p) => !since || p.time >= since);
}

/** The run with `runId` from its month's catalog. @param {string} runId @param {string} time */
export async function runEntry(runId, time) {
  const catalog = await getJson(`runs/${time.slice(0, 7)}/catalog.json`);
  return catalog.runs.find((/** @type {any} */ r) => r.runId === runId);
}
