// The mode table: per runner, which mode a CI job should use, speed and isolation side by side, both
// measured in the run. One row per environment that was part of the run (a mode that could not run keeps
// its row, with the reason): its isolation facts (the `isolation` benchmark's, ../model/isolation.js), the
// start-up a job pays and the team's workload time and cost per 1,000 jobs where the run measured them,
// its outcomes against Docker in the reading's words (./answer.js), and the failure rate of its cells.
// With a policy, each row says whether it meets it, and the answer names the cheapest mode that does.
// Built once here; the reports, `compare`, the site only format it (../model/isolation.js modeTableText).
import { DEFAULT_BILLING, DEFAULT_PRICE_PER_MINUTE, costOf } from '../model/job-cost.js';
import { meetsPolicy, modeFacts, policyText } from '../model/isolation.js';
import { median, summarize } from '../stats/index.js';
import { STARTUP_METRIC, familySentences } from './answer.js';
import { withStartupWithoutImage } from '../model/earlier-results.js';

/**
 * @typedef {import('#model/isolation.js').ModeTable} ModeTable
 * @typedef {import('#model/isolation.js').ModeRow} ModeRow
 */

/**
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {import('./index.js').Comparison[]} comparisons the run's comparisons (those against Docker are used)
 * @param {{ policy?: import('#model/isolation.js').Policy | null, price?: number, billing?: import('#model/job-cost.js').Billing }} [opts]
 *   billing: how the workload's minutes count, the same model as every other sentence of the run
 * @returns {ModeTable}
 */
export function modeTable(results, comparisons, opts = {}) {
  const price = opts.price ?? DEFAULT_PRICE_PER_MINUTE;
  const billing = opts.billing ?? DEFAULT_BILLING;
  const policy = opts.policy ?? null;
  const probed = results.cells.some((c) => c.benchmark === 'isolation');
  const keys = [...new Set(results.cells.map((c) => c.environmentKey))].filter((k) => k !== 'native');
  const rows = keys.map((key) => rowOf(results, comparisons, key, { price, billing }, policy));
  const order = (/** @type {string} */ k) => (k === 'docker' ? 0 : 1);
  rows.sort((a, b) => order(a.env) - order(b.env) || a.env.localeCompare(b.env));
  return {
    runner: results.runner.name,
    probed,
    price,
    policy: policy ? policyText(policy) : null,
    rows,
    answer: policy ? answerOf(rows, policyText(policy)) : null,
  };
}

/**
 * @param {import('#model/results.js').Results} results @param {import('./index.js').Comparison[]} comparisons
 * @param {string} key @param {import('#model/job-cost.js').Pricing} price @param {import('#model/isolation.js').Policy | null} policy
 * @returns {ModeRow}
 */
function rowOf(results, comparisons, key, price, policy) {
  const cells = results.cells.filter((c) => c.environmentKey === key).map((c) => withStartupWithoutImage(c));
  const env = results.environments.find((e) => e.key === key);
  const iso = cells.find((c) => c.benchmark === 'isolation' && c.status === 'ok' && c.facts?.length);
  const isoCell = cells.find((c) => c.benchmark === 'isolation');
  const facts = iso ? modeFacts(/** @type {import('#model/isolation.js').Fact[]} */ (iso.facts)) : null;
  const startup = cells
    .find((c) => c.benchmark === 'lifecycle' && c.status === 'ok')
    ?.metrics.find((m) => m.metric === STARTUP_METRIC && m.samples.length);
  const job = jobOf(cells, key, price);
  const mine = comparisons.filter(
    // The probe's own wall time says nothing of the mode: left out of its verdicts.
    (c) =>
      c.kind === 'dind-vs-docker' && c.candidate.env === key && c.benchmark !== 'isolation' && Number.isFinite(c.worse),
  );
  const ran = cells.filter((c) => c.status === 'ok' || c.status === 'failed');
  const failed = ran.filter((c) => c.status === 'failed').length;
  const notProbed =
    isoCell && isoCell.status !== 'ok'
      ? `isolation ${isoCell.status}: ${String(isoCell.reason ?? '').split('\n')[0]}`
      : isoCell
        ? null
        : 'the isolation benchmark was not run';
  return {
    env: key,
    status: env?.status ?? (ran.length ? 'ok' : 'unavailable'),
    reason: env?.status !== 'ok' && env?.reason ? String(env.reason).split('\n')[0] : (notProbed ?? undefined),
    facts,
    startupMs: startup ? median(startup.samples) : null,
    job,
    verdicts: key === 'docker' ? [] : familySentences(mine),
    cells: { ran: ran.length, failed, unavailable: cells.length - ran.length },
    policy: policy ? (facts ? meetsPolicy(facts, policy) : { meets: false, why: ['not probed'] }) : null,
  };
}

/**
 * The team's workload in this mode: its median job time and dollars per 1,000 jobs (../model/job-cost.js).
 * @param {import('#model/results.js').Cell[]} cells @param {string} key @param {import('#model/job-cost.js').Pricing} pricing
 * @returns {ModeRow['job']}
 */
function jobOf(cells, key, { price, billing }) {
  const cell = cells.find((c) => c.benchmark.startsWith('workload.') && c.status === 'ok');
  const total = cell?.metrics.find((m) => m.metric === 'job.total_ms' && m.samples.length);
  if (!cell || !total) return null;
  const s = summarize(total.samples);
  const [e] = costOf({
    benchmark: cell.benchmark,
    distro: cell.distro,
    price,
    billing,
    envs: [{ key, n: s.n, median: s.median, low: s.low, high: s.high, imagesMs: 0 }],
  }).envs;
  return { benchmark: cell.benchmark, medianMs: e.median, per1000: e.per1000 };
}

/**
 * The answer: the cheapest mode that meets the policy, by the team's workload cost per 1,000 jobs where
 * measured, else by the start-up a job pays; or why none does.
 * @param {ModeRow[]} rows @param {string} policy
 */
function answerOf(rows, policy) {
  const meeting = rows.filter((r) => r.policy?.meets);
  const failing = rows.filter((r) => !r.policy?.meets).map((r) => `${r.env} (${r.policy?.why.join(', ')})`);
  const fails = failing.length ? ` Not meeting it: ${failing.join('; ')}.` : '';
  if (!meeting.length) return `No mode measured on this runner meets the policy ${policy}.${fails}`;
  const withJob = meeting.filter((r) => r.job);
  const withStart = meeting.filter((r) => r.startupMs !== null);
  const [by, best] = withJob.length
    ? [
        'its workload cost',
        [...withJob].sort(
          (a, b) => (a.job?.per1000 ?? 0) - (b.job?.per1000 ?? 0) || (a.job?.medianMs ?? 0) - (b.job?.medianMs ?? 0),
        )[0],
      ]
    : withStart.length
      ? ['the start-up a job pays', [...withStart].sort((a, b) => (a.startupMs ?? 0) - (b.startupMs ?? 0))[0]]
      : ['', null];
  const others = meeting.length > 1 ? ` ${meeting.length} modes meet it: ${meeting.map((r) => r.env).join(', ')}.` : '';
  if (!best)
    return `Meeting the policy ${policy}: ${meeting.map((r) => r.env).join(', ')}; which is cheapest cannot be said: the run measured neither start-up (lifecycle) nor a workload in them.${fails}`;
  const cost = best.job
    ? `${seconds(best.job.medianMs)} a job, $${best.job.per1000.toFixed(2)} per 1,000 jobs`
    : `start-up ${seconds(/** @type {number} */ (best.startupMs))} a job`;
  // A workload run in some modes only: the cheapest of those that ran it, said so.
  const among = withJob.length && withJob.length < meeting.length ? ` among the ${withJob.length} that ran it` : '';
  return `The cheapest mode on this runner that meets the policy ${policy} is ${best.env} (${cost}; cheapest by ${by}${among}).${others}${fails}`;
}

/** @param {number} ms */
const seconds = (ms) => `${ms < 10_000 ? (ms / 1000).toFixed(2) : Math.round(ms / 1000).toLocaleString('en')} s`;
