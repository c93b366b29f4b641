// What the team's own job costs in each environment (a workload run): its median wall time with an
// interval, the runner minutes a job is billed (GitHub Actions rounds each job up to the whole minute), and
// the money per 1,000 jobs at a per-minute price, with the sentence every output opens a workload run with.
// Import-free (part of the results model): the reports (../results/job-cost.js) and the site both use it.
import { magnitude } from './numbers.js';

/**
 * What one GitHub-hosted Linux 2-core (x64) minute costs, in US dollars, from January 1, 2026 (it was
 * $0.008): GitHub's "Actions runner pricing" reference (docs.github.com, billing/reference/
 * actions-runner-pricing), read 2026-11-24. Self-hosted users give their own with --price-per-minute.
 */
export const DEFAULT_PRICE_PER_MINUTE = 0.006;
export const PRICE_SOURCE = "GitHub-hosted Linux 2-core, $0.006/min from 2026-01-01 (GitHub's Actions runner pricing)";

/**
 * @typedef {{ key: string, n: number, median: number, low: number, high: number, billedMinutes: number,
 *   per1000: number, imagesMs: number }} JobCost
 *   median, low, high: the job's wall time in ms, with the 95% interval of the median; billedMinutes: per
 *   job, the median job rounded up to the minute; per1000: dollars per 1,000 such jobs; imagesMs: the
 *   median time the job spent making its images available (pulls, loads)
 * @typedef {{ benchmark: string, distro: string, price: number, envs: JobCost[] }} WorkloadCost
 * @typedef {Omit<JobCost, 'billedMinutes' | 'per1000'>} JobTime what was measured of one environment's jobs
 */

/**
 * A workload's cost from its measured job times: billed minutes (each job rounded up to the minute, at
 * least one) and dollars per 1,000 jobs at `price`; Docker first.
 * @param {{ benchmark: string, distro: string, price: number, envs: JobTime[] }} w
 * @returns {WorkloadCost}
 */
export function costOf({ benchmark, distro, price, envs }) {
  const priced = envs.map((e) => {
    const billedMinutes = Math.max(1, Math.ceil(e.median / 60_000));
    return { ...e, billedMinutes, per1000: billedMinutes * price * 1000 };
  });
  priced.sort((a, b) => (a.key === 'docker' ? -1 : b.key === 'docker' ? 1 : a.key.localeCompare(b.key)));
  return { benchmark, distro, price, envs: priced };
}

/** Seconds as a sentence reads them: "38.2 s", "1,204 s". @param {number} ms */
const seconds = (ms) => `${magnitude(ms / 1000, 100)} s`;
/** @param {number} x */
const dollars = (x) => `$${x < 10 ? x.toFixed(2) : Math.round(x).toLocaleString('en')}`;
/** @param {number} x */
const signed = (x, /** @type {(v: number) => string} */ f) => `${x < 0 ? '-' : '+'}${f(Math.abs(x))}`;

/**
 * The answer first: "On this runner your job (workload.app) takes 38.2 s [37.9–39.0] in docker and 71.5 s
 * [70.1–73.0] in dind@20.10 (+33.3 s, +1 billed minute, +$6.00 per 1,000 jobs); making its images available
 * is 24.0 s of it in dind@20.10." One sentence per workload, every environment against Docker's.
 * @param {WorkloadCost} w
 */
export function jobSentence(w) {
  const base = w.envs.find((e) => e.key === 'docker') ?? w.envs[0];
  const at = (/** @type {JobCost} */ e) => `${seconds(e.median)} [${seconds(e.low)}–${seconds(e.high)}] in ${e.key}`;
  const others = w.envs.filter((e) => e !== base);
  const diffs = others.map(
    (e) =>
      `${at(e)} (${signed(e.median - base.median, seconds)}, ${signed(e.billedMinutes - base.billedMinutes, (m) => `${m} billed minute${m === 1 ? '' : 's'}`)}, ` +
      `${signed(e.per1000 - base.per1000, dollars)} per 1,000 jobs)`,
  );
  const worst = others.reduce((a, e) => (a && a.median >= e.median ? a : e), /** @type {JobCost | null} */ (null));
  const images =
    worst && worst.imagesMs > 0
      ? `; making its images available is ${seconds(worst.imagesMs)} of it in ${worst.key}`
      : '';
  const body = others.length ? `${at(base)} and ${diffs.join(', ')}` : at(base);
  return `On this runner your job (${w.benchmark}, ${w.distro}) takes ${body}${images}. Billed per started minute at $${w.price}/min.`;
}

/** The cost table of a workload: header and rows (strings; callers escape for their format). @param {WorkloadCost} w */
export function costTable(w) {
  return {
    title: `${w.benchmark} (${w.distro}): cost per job at $${w.price} per runner minute`,
    header: ['environment', 'job wall time, median [95% interval]', 'billed minutes per job', 'per 1,000 jobs'],
    rows: w.envs.map((e) => [
      e.key,
      `${seconds(e.median)} [${seconds(e.low)}–${seconds(e.high)}] (n=${e.n})`,
      String(e.billedMinutes),
      dollars(e.per1000),
    ]),
  };
}
