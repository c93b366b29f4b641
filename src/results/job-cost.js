// The cost of a workload run's job per environment, from a results document: the samples of each cell's
// job.total_ms summarized (median and its 95% interval), priced by the model (../model/job-cost.js).
import { summarize } from '../stats/index.js';
import { DEFAULT_PRICE_PER_MINUTE, costOf } from '../model/job-cost.js';

export { DEFAULT_PRICE_PER_MINUTE, PRICE_SOURCE, costTable, jobSentence } from '../model/job-cost.js';

/** The price a run was asked to use (--price-per-minute), else the default. @param {import('#model/results.js').Results} results */
export const priceOf = (results) => {
  const p = results.run?.args?.pricePerMinute;
  return typeof p === 'number' && Number.isFinite(p) && p >= 0 ? p : DEFAULT_PRICE_PER_MINUTE;
};

/**
 * The cost of each workload's job per environment, Docker first.
 * @param {import('#model/results.js').Results} results a valid results document
 * @returns {import('../model/job-cost.js').WorkloadCost[]}
 */
export function workloadCosts(results) {
  const price = priceOf(results);
  /** @type {Map<string, {benchmark: string, distro: string, price: number, envs: import('../model/job-cost.js').JobTime[]}>} */
  const out = new Map();
  for (const cell of results.cells) {
    if (!String(cell.benchmark).startsWith('workload.') || cell.status !== 'ok') continue;
    const total = cell.metrics.find((/** @type {any} */ m) => m.metric === 'job.total_ms');
    if (!total?.samples.length) continue;
    const id = `${cell.benchmark} ${cell.distro}`;
    if (!out.has(id)) out.set(id, { benchmark: cell.benchmark, distro: cell.distro, price, envs: [] });
    const s = summarize(total.samples);
    const images = cell.metrics.filter(
      (/** @type {any} */ m) => /^image\..*\.(pull|load)_ms$/.test(m.metric) && m.samples.length,
    );
    const imagesMs = images.reduce((sum, /** @type {any} */ m) => sum + summarize(m.samples).median, 0);
    out.get(id)?.envs.push({ key: cell.environmentKey, n: s.n, median: s.median, low: s.low, high: s.high, imagesMs });
  }
  return [...out.values()].map(costOf);
}
