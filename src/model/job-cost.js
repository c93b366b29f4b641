// What a job costs, in one billing model for every sentence that names money: the team's own job (a
// workload run: its median wall time with an interval, the runner minutes it is billed, the money per 1,000
// jobs) and a difference in job time (the start-up DinD adds, ../reading/answer.js). Two models:
// - hosted: per started minute, as GitHub bills its hosted runners (each job rounded up to the whole
//   minute, at least one);
// - occupancy: per second of runner time at the runner's own price (a self-hosted machine whose hourly
//   price the team knows: the price per minute is that hourly price divided by 60).
// Import-free (part of the results model): the reading (../reading/pricing.js), compare and the site use it.
import { magnitude } from './numbers.js';

/**
 * What one GitHub-hosted Linux 2-core (x64) minute costs, in US dollars, from January 1, 2026 (it was
 * $0.008): GitHub's "Actions runner pricing" reference (docs.github.com, billing/reference/
 * actions-runner-pricing), read 2026-11-24. Self-hosted users give their own with --price-per-minute.
 */
export const DEFAULT_PRICE_PER_MINUTE = 0.006;
export const PRICE_SOURCE = "GitHub-hosted Linux 2-core, $0.006/min from 2026-01-01 (GitHub's Actions runner pricing)";

/** The billing models (`--billing`): per started minute as GitHub bills, or per second of runner time. */
export const BILLING_MODELS = /** @type {const} */ (['hosted', 'occupancy']);
/** @typedef {(typeof BILLING_MODELS)[number]} Billing */
/** The default goes with the default price, a GitHub-hosted minute's. */
export const DEFAULT_BILLING = /** @type {Billing} */ ('hosted');
/** @typedef {{ price: number, billing: Billing }} Pricing dollars per runner minute, and how minutes count */

/**
 * @typedef {{ key: string, n: number, median: number, low: number, high: number, billedMinutes: number,
 *   per1000: number, imagesMs: number }} JobCost
 *   median, low, high: the job's wall time in ms, with the 95% interval of the median; billedMinutes: per
 *   job, the median job's minutes as the billing model counts them (hosted: rounded up to the minute;
 *   occupancy: to the second); per1000: dollars per 1,000 such jobs; imagesMs: the median time the job
 *   spent making its images available (pulls, loads)
 * @typedef {{ benchmark: string, distro: string, price: number, billing?: Billing, envs: JobCost[] }} WorkloadCost
 *   billing: absent in histories written before it was asked for, which were all billed hosted
 * @typedef {Omit<JobCost, 'billedMinutes' | 'per1000'>} JobTime what was measured of one environment's jobs
 */

/**
 * The runner minutes one job of `ms` is billed: hosted rounds up to the started minute (at least one),
 * occupancy counts the time itself.
 * @param {number} ms @param {Billing} billing
 */
export const billedMinutes = (ms, billing) =>
  billing === 'occupancy' ? Math.max(0, ms) / 60_000 : Math.max(1, Math.ceil(ms / 60_000));

/** The billing model a stored cost was made with. @param {{ billing?: string }} w @returns {Billing} */
const billingOf = (w) => (w.billing === 'occupancy' ? 'occupancy' : 'hosted');

/**
 * A workload's cost from its measured job times: minutes per job in the billing model and dollars per
 * 1,000 jobs at `price`; Docker first.
 * @param {{ benchmark: string, distro: string, price: number, billing?: Billing, envs: JobTime[] }} w
 * @returns {WorkloadCost}
 */
export function costOf({ benchmark, distro, price, billing = DEFAULT_BILLING, envs }) {
  const priced = envs.map((e) => {
    const minutes = billedMinutes(e.median, billing);
    return { ...e, billedMinutes: minutes, per1000: minutes * price * 1000 };
  });
  priced.sort((a, b) => (a.key === 'docker' ? -1 : b.key === 'docker' ? 1 : a.key.localeCompare(b.key)));
  return { benchmark, distro, price, billing, envs: priced };
}

/** Seconds as a sentence reads them: "38.2 s", "1,204 s". @param {number} ms */
const seconds = (ms) => `${magnitude(ms / 1000, 100)} s`;
/** A difference as the answer's sentence prints it (../reading/answer.js): "0.07 s", "4.2 s". @param {number} ms */
const differenceSeconds = (ms) => (Math.abs(ms) < 1000 ? `${(ms / 1000).toFixed(2)} s` : seconds(ms));
/** @param {number} x */
const dollars = (x) => `$${x < 10 ? x.toFixed(2) : Math.round(x).toLocaleString('en')}`;
/** @param {number} x */
const signed = (x, /** @type {(v: number) => string} */ f) => `${x < 0 ? '-' : '+'}${f(Math.abs(x))}`;
/** "$0.006" as given (up to 6 decimals, no trailing zeros). @param {number} p */
const price$ = (p) => `$${Number(p.toFixed(6))}`;

/**
 * How the money was counted, for the end of a sentence: "billed per started minute at $0.006 (GitHub-hosted
 * billing)", "at $0.0032 a minute of runner time ($0.192 an hour), to the second".
 * @param {Pricing} p
 */
export function pricingText({ price, billing }) {
  return billing === 'occupancy'
    ? `at ${price$(price)} a minute of runner time (${price$(price * 60)} an hour), to the second`
    : `billed per started minute at ${price$(price)}, as GitHub bills hosted runners`;
}

/**
 * What a difference in job time costs per 1,000 jobs, in the billing model, and the words that say it.
 * Occupancy: the time itself at the price. Hosted, with the two whole jobs known (a workload): the
 * difference of their billed minutes; when rounding makes that differ from the runner time, `note` says so
 * and gives the occupancy figure, so "+4.2 s" never reads as a bare "+$0.00". Hosted, with only the
 * difference known (a start-up): a job pays a whole minute more or none depending on where its length
 * falls, so the figure is the average over jobs (which is the occupancy figure) and `note` says what share
 * of jobs pay a minute more.
 * @param {number} diffMs candidate minus baseline
 * @param {Pricing} pricing
 * @param {{ baseMs: number, candidateMs: number }} [whole] the two jobs' wall times, when known
 * @returns {{ per1000: number, occupancyPer1000: number, billedMinutes: number | null, text: string, note: string }}
 *   billedMinutes: the billed difference per job (hosted, whole jobs known), else null; text: the amount
 *   ("+1 billed minute, +$6.00 per 1,000 jobs"); note: why hosted billing makes it so ('' when nothing to say)
 */
export function moneyOf(diffMs, pricing, whole) {
  const occupancyPer1000 = (diffMs / 60_000) * pricing.price * 1000;
  const occupancy = `${signed(occupancyPer1000, dollars)} per 1,000 jobs`;
  if (pricing.billing === 'occupancy')
    return { per1000: occupancyPer1000, occupancyPer1000, billedMinutes: null, text: occupancy, note: '' };
  if (whole) {
    const base = billedMinutes(whole.baseMs, 'hosted');
    const cand = billedMinutes(whole.candidateMs, 'hosted');
    const minutes = cand - base;
    const per1000 = minutes * pricing.price * 1000;
    const text = `${signed(minutes, (m) => `${m} billed minute${m === 1 ? '' : 's'}`)}, ${signed(per1000, dollars)} per 1,000 jobs`;
    // Rounding hides a difference, or shows one the other way: say so, with the runner time's own cost.
    const hides = (minutes === 0 && diffMs !== 0) || Math.sign(minutes) * Math.sign(diffMs) < 0;
    const billed =
      cand === base ? `both are billed ${cand} minute${cand === 1 ? '' : 's'}` : `they are billed ${base} and ${cand}`;
    const note = hides
      ? `hosted billing rounds each job up to the minute and ${billed}; as runner time the ${signed(diffMs, differenceSeconds)} ` +
        `are ${occupancy}`
      : '';
    return { per1000, occupancyPer1000, billedMinutes: minutes, text, note };
  }
  const minutes = Math.abs(diffMs) / 60_000;
  const k = Math.floor(minutes);
  const pct = (minutes - k) * 100;
  // (a share under 1% reads as such, never as "about 0%")
  const share = pct < 1 ? 'under 1' : `about ${Math.round(pct)}`;
  const more = diffMs < 0 ? 'less' : 'more';
  const note =
    diffMs === 0
      ? ''
      : k === 0
        ? `each job rounded up to the minute: ${share}% of jobs pay a minute ${more}, the others the same`
        : `each job rounded up to the minute: each pays ${k} or ${k + 1} minutes ${more}, ${share}% of them ${k + 1}`;
  return { per1000: occupancyPer1000, occupancyPer1000, billedMinutes: null, text: `${occupancy} on average`, note };
}

/**
 * The answer first: "On this runner your job (workload.app) takes 38.2 s [37.9–39.0] in docker and 71.5 s
 * [70.1–73.0] in dind@20.10 (+33.3 s, +1 billed minute, +$6.00 per 1,000 jobs); making its images available
 * is 24.0 s of it in dind@20.10." One sentence per workload, every environment against `baseKey`'s
 * (Docker's), its money in the workload's billing model (moneyOf).
 * @param {WorkloadCost} w @param {string} [baseKey]
 */
export function jobSentence(w, baseKey = 'docker') {
  const pricing = { price: w.price, billing: billingOf(w) };
  const base = w.envs.find((e) => e.key === baseKey) ?? w.envs[0];
  const at = (/** @type {JobCost} */ e) => `${seconds(e.median)} [${seconds(e.low)}–${seconds(e.high)}] in ${e.key}`;
  const others = w.envs.filter((e) => e !== base);
  const diffs = others.map((e) => {
    const diff = e.median - base.median;
    const money = moneyOf(diff, pricing, { baseMs: base.median, candidateMs: e.median });
    return `${at(e)} (${signed(diff, seconds)}, ${money.text}${money.note ? `: ${money.note}` : ''})`;
  });
  const worst = others.reduce((a, e) => (a && a.median >= e.median ? a : e), /** @type {JobCost | null} */ (null));
  const images =
    worst && worst.imagesMs > 0
      ? `; making its images available is ${seconds(worst.imagesMs)} of it in ${worst.key}`
      : '';
  const body = others.length ? `${at(base)} and ${diffs.join(', ')}` : at(base);
  const how = pricingText(pricing);
  return `On this runner your job (${w.benchmark}, ${w.distro}) takes ${body}${images}. ${how[0].toUpperCase()}${how.slice(1)}.`;
}

/** The cost table of a workload: header and rows (strings; callers escape for their format). @param {WorkloadCost} w */
export function costTable(w) {
  const billing = billingOf(w);
  return {
    title: `${w.benchmark} (${w.distro}): cost per job, ${pricingText({ price: w.price, billing })}`,
    header: [
      'environment',
      'job wall time, median [95% interval]',
      billing === 'occupancy' ? 'runner minutes per job' : 'billed minutes per job',
      'per 1,000 jobs',
    ],
    rows: w.envs.map((e) => [
      e.key,
      `${seconds(e.median)} [${seconds(e.low)}–${seconds(e.high)}] (n=${e.n})`,
      billing === 'occupancy' ? e.billedMinutes.toFixed(2) : String(e.billedMinutes),
      dollars(e.per1000),
    ]),
  };
}
