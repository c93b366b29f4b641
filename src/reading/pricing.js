// How a run's costs are priced, and the cost of a workload's job per environment: read from a results
// document once, for the Reading (./read-run.js). The model of money is ../model/job-cost.js.
import { summarize } from '../stats/index.js';
import { BILLING_MODELS, DEFAULT_BILLING, DEFAULT_PRICE_PER_MINUTE, costOf } from '../model/job-cost.js';

/** The price a run was asked to use (--price-per-minute), else the default. @param {import('#model/results.js').Results} results */
export const priceOf = (results) => {
  const p = results.run?.args?.pricePerMinute;
  return typeof p === 'number' && Number.isFinite(p) && p >= 0 ? p : DEFAULT_PRICE_PER_MINUTE;
};

/** A billing model this version knows. @param {unknown} v @returns {v is import('#model/job-cost.js').Billing} */
const isBilling = (v) => BILLING_MODELS.some((b) => b === v);

/**
 * The pricing of a run's costs: `over` (compare's --price-per-minute and --billing) where given, else what
 * the run was asked to use (run.args, untrusted: only a known model is taken), else the defaults.
 * @param {import('#model/results.js').Results} results
 * @param {{ price?: number, billing?: import('../model/job-cost.js').Billing }} [over]
 * @returns {import('../model/job-cost.js').Pricing}
 */
export function pricingOf(results, over = {}) {
  const recorded = results.run?.args?.billing;
  const billing = over.billing ?? (isBilling(recorded) ? recorded : DEFAULT_BILLING);
  return { price: over.price ?? priceOf(results), billing };
}

/**
 * The cost of each workload's job per environment, Docker first.
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {{ price?: number, billing?: import('../model/job-cost.js').Billing }} [over] compare's pricing, over the run's
 * @returns {import('../model/job-cost.js').WorkloadCost[]}
 */
export function workloadCosts(results, over = {}) {
  const { price, billing } = pricingOf(results, over);
  /** @type {Map<string, {benchmark: string, distro: string, price: number, billing: import('../model/job-cost.js').Billing, envs: import('../model/job-cost.js').JobTime[]}>} */
  const out = new Map();
  for (const cell of results.cells) {
    if (!String(cell.benchmark).startsWith('workload.') || cell.status !== 'ok') continue;
    const total = cell.metrics.find((m) => m.metric === 'job.total_ms');
    if (!total?.samples.length) continue;
    const id = `${cell.benchmark} ${cell.distro}`;
    if (!out.has(id)) out.set(id, { benchmark: cell.benchmark, distro: cell.distro, price, billing, envs: [] });
    const s = summarize(total.samples);
    const images = cell.metrics.filter((m) => /^image\..*\.(pull|load)_ms$/.test(m.metric) && m.samples.length);
    const imagesMs = images.reduce((sum, m) => sum + summarize(m.samples).median, 0);
    out.get(id)?.envs.push({ key: cell.environmentKey, n: s.n, median: s.median, low: s.low, high: s.high, imagesMs });
  }
  return [...out.values()].map(costOf);
}
