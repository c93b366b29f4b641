// The answer first, in job terms: what the candidate (DinD, an alternative, another Engine line) costs a
// job on this runner, in seconds with an interval and in dollars per 1,000 jobs, what that is made of, then
// the outcomes by benchmark. Every output opens with these sentences (plain text; callers escape them).
import { DEFAULT_BILLING, DEFAULT_PRICE_PER_MINUTE, moneyOf, pricingText } from '../model/job-cost.js';
import { worseInterval } from '../model/change.js';
import { RESOURCES, decisionOf, isDecisionMetric } from '../model/decisions.js';
import { magnitude, num, unsignedPct } from '../model/numbers.js';
import { median } from '../stats/index.js';
import { withStartupWithoutImage } from '../model/earlier-results.js';

/**
 * The metric of the start-up a job pays: from the start call to the first container's output, without the
 * time its image took to be made available (a stand-in for the job's own pulls that drifts with the
 * machine's state: src/engine/startup.js withoutImageMs). That time is described beside it.
 */
export const STARTUP_METRIC = 'startup.without_image_ms';

/** Seconds as a sentence reads them: "7.9 s", "0.35 s". @param {number} ms */
const seconds = (ms) => `${Math.abs(ms) < 1000 ? (ms / 1000).toFixed(2) : magnitude(ms / 1000, 100)} s`;
/** @param {number} ms */
const signedSeconds = (ms) => `${ms < 0 ? '-' : '+'}${seconds(Math.abs(ms))}`;

/**
 * @typedef {import('./index.js').Comparison} Comparison
 * @typedef {{ price?: number, billing?: import('../model/job-cost.js').Billing }} AnswerOptions
 * price: dollars per runner-minute (a hosted minute's, or a self-hosted runner's hourly price / 60);
 * billing: how minutes count (hosted: per started minute; occupancy: to the second), the same model as
 * the workload's sentence (../model/job-cost.js moneyOf);
 */

/**
 * What a difference in job time costs, from one comparison of a job-time metric (the start-up, or a
 * workload's whole job): the difference of medians with its interval (the ratio's, times the baseline's
 * median) and its money in the billing model. `wholeJob`: the metric is the whole job, so hosted billing
 * can round each side to its started minutes; otherwise hosted money is the average over jobs.
 * @param {Comparison} c @param {AnswerOptions} [opts] @param {boolean} [wholeJob]
 */
export function jobCostOf(c, opts = {}, wholeJob = false) {
  const pricing = { price: opts.price ?? DEFAULT_PRICE_PER_MINUTE, billing: opts.billing ?? DEFAULT_BILLING };
  const base = c.baseline.median;
  // The estimate the interval is about: the ratio (a decision's, of geometric means) times the baseline's
  // median, so the difference printed always lies inside the interval printed beside it.
  const diff = Number.isFinite(c.ratio.ratio) ? base * (c.ratio.ratio - 1) : c.candidate.median - base;
  const lo = base * (c.ratio.low - 1);
  const hi = base * (c.ratio.high - 1);
  const interval = Number.isFinite(lo) && Number.isFinite(hi) ? { low: lo, high: hi } : null;
  const money = moneyOf(diff, pricing, wholeJob ? { baseMs: base, candidateMs: c.candidate.median } : undefined);
  return { pricing, diff, interval, money };
}

/** "+7.1 s [+3.5 s, +16.3 s]". @param {ReturnType<typeof jobCostOf>} cost */
export const secondsText = (cost) =>
  `${signedSeconds(cost.diff)}${cost.interval ? ` [${signedSeconds(cost.interval.low)}, ${signedSeconds(cost.interval.high)}]` : ''}`;

/**
 * What the difference is made of, in numbers that add up: the change in percent with its interval, of the
 * baseline's median (the difference is that median times the change): "+196% [+134%, +273%] of docker's
 * median job, 1.94 s" for +3.8 s [+2.6 s, +5.3 s]. The change is the decision's ratio (of geometric means),
 * so the candidate's median is not in the sentence: "6.1 s vs 1.9 s" beside +3.8 s read as a sum that does
 * not add up. With no ratio (too few samples), the two medians whose difference it is.
 * @param {Comparison} c @param {string} what "job", "start"
 */
function basisText(c, what) {
  const r = c.ratio;
  if (!Number.isFinite(r.ratio))
    return `${seconds(c.candidate.median)} less ${seconds(c.baseline.median)}, the medians`;
  // Three significant digits: "+12%" of a 600-s job would be 72 s beside a printed +70 s.
  const p3 = (/** @type {number} */ x) => `${x < 0 ? '-' : '+'}${num(Math.abs(x * 100))}%`;
  const interval = Number.isFinite(r.low) && Number.isFinite(r.high) ? ` [${p3(r.low - 1)}, ${p3(r.high - 1)}]` : '';
  return `${p3(r.ratio - 1)}${interval} of ${c.baseline.env}'s median ${what}, ${num(c.baseline.median / 1000)} s`;
}

/**
 * What deciding an open question of a whole job costs: the jobs a side that would decide it (the samples
 * still needed, each side's median job each), in runner minutes and dollars at the price (the jobs alone:
 * a fresh engine's start and stop come beside them). Null when nothing says how many would.
 * @param {Comparison} c @param {import('../model/job-cost.js').Pricing} pricing
 * @returns {{ samples: number, more: number, minutes: number, dollars: number, text: string } | null}
 */
export function decideCost(c, pricing) {
  const n = c.samplesToDecide;
  if (!n || (c.outcome !== 'inconclusive' && c.outcome !== null)) return null;
  const moreB = Math.max(0, n - c.baseline.n);
  const moreC = Math.max(0, n - c.candidate.n);
  const minutes = (moreB * c.baseline.median + moreC * c.candidate.median) / 60_000;
  const dollars = minutes * pricing.price;
  const text =
    `${Math.max(moreB, moreC).toLocaleString('en')} more jobs a side (${n.toLocaleString('en')} a side), ` +
    `about ${magnitude(minutes)} runner minutes of jobs, $${dollars < 10 ? dollars.toFixed(2) : Math.round(dollars).toLocaleString('en')} at $${Number(pricing.price.toFixed(6))} a minute`;
  return { samples: n, more: Math.max(moreB, moreC), minutes, dollars, text };
}

/**
 * The start-up a job pays, the candidate against the baseline: "dind@20.10 costs a job +7.5 s
 * [+6.9 s, +8.1 s] to start against docker, before its images: +1875% [+1725%, +2025%] of docker's median
 * start, 0.400 s (regression), +$0.75 per 1,000 jobs on average,
 * billed per started minute at $0.006, as GitHub bills hosted runners (each job rounded up to the minute:
 * about 13% of jobs pay a minute more, the others the same)". The interval is the ratio's, times
 * the baseline's median; the money is in the billing model (jobCostOf).
 * @param {Comparison} c the STARTUP_METRIC comparison @param {AnswerOptions} [opts]
 */
export function startupSentence(c, opts = {}) {
  const cost = jobCostOf(c, opts);
  return (
    `${c.candidate.env} costs a job ${secondsText(cost)} to start against ${c.baseline.env}, before its images: ` +
    `${basisText(c, 'start')} (${outcomeText(c)}), ${cost.money.text}, ` +
    `${pricingText(cost.pricing)}.`
  );
}

/** A workload's whole job: the metric whose difference is what the team's job pays. */
export const JOB_METRIC = 'job.total_ms';

/** @param {Comparison} c */
const isJob = (c) => c.benchmark.startsWith('workload.') && c.metric === JOB_METRIC;

/**
 * @typedef {{ sentence: string, outputSentence: string, benchmark: string | null, baseline: string | null,
 *   candidate: string | null, seconds: { diff: number, low: number | null, high: number | null } | null,
 *   per1000: number | null, occupancyPer1000: number | null, price: number,
 *   billing: import('../model/job-cost.js').Billing }} CostAnswer
 * The cost per job, for the first line of the job summary and the PR comment and for the workflow's
 * outputs: seconds with the interval of the difference, dollars per 1,000 jobs in the billing model
 * (occupancyPer1000: the same difference as runner time, what hosted rounding can hide);
 * outputSentence: the sentence as the workflow's `cost` output says it (outputWords).
 */

/**
 * A sentence of the reading as a workflow output says it, whose alphabet has no `$` and no brackets
 * (src/compare/outputs.js clean): dollars as "USD 0.42", an interval "[+3.5 s, +16.3 s]" as "from +3.5 s
 * to +16.3 s". Worded here, where the sentence is made, so no output reads a sentence to reword it.
 * @param {string} sentence
 */
export const outputWords = (sentence) =>
  sentence.replace(/\$(?=\d)/g, 'USD ').replace(/\[([^[\],]{1,40}), ([^[\],]{1,40})\]/g, 'from $1 to $2');

/**
 * The cost per job of the first candidate: the team's own job where the run has a workload (its whole job,
 * so hosted billing rounds each side), else the start-up a job pays, else a sentence that says neither was
 * measured. Every number comes from the comparison, in the one billing model of every other sentence.
 * @param {Comparison[]} comparisons candidates in the order they are reported @param {AnswerOptions} [opts]
 * @returns {CostAnswer}
 */
export function costAnswer(comparisons, opts = {}) {
  const job = comparisons.find((c) => isJob(c) && c.baseline.median > 0);
  const startup = comparisons.find((c) => c.benchmark === 'lifecycle' && c.metric === STARTUP_METRIC);
  const c = job ?? startup;
  const pricing = { price: opts.price ?? DEFAULT_PRICE_PER_MINUTE, billing: opts.billing ?? DEFAULT_BILLING };
  if (!c) {
    const sentence =
      'not measured in this run: it comes from a workload (your own job) or from the lifecycle benchmark (the start-up a job pays).';
    return {
      sentence,
      outputSentence: outputWords(sentence),
      ...{ benchmark: null, baseline: null, candidate: null, seconds: null, per1000: null, occupancyPer1000: null },
      ...pricing,
    };
  }
  const cost = jobCostOf(c, opts, c === job);
  // An open question says what would decide it and what those jobs cost.
  const decide = job ? decideCost(job, pricing) : null;
  const sentence = job
    ? `Your job (${job.benchmark}, ${job.candidate.distro}) costs ${secondsText(cost)} in ${job.candidate.env} against ` +
      `${job.baseline.env}: ${basisText(job, 'job')} (${outcomeText(job)}), ` +
      `${cost.money.text}${cost.money.note ? ` (${cost.money.note})` : ''}, ${pricingText(cost.pricing)}.` +
      (decide ? ` To decide it: ${decide.text}.` : '')
    : startupSentence(c, opts);
  return {
    sentence,
    outputSentence: outputWords(sentence),
    benchmark: c.benchmark,
    baseline: c.baseline.env,
    candidate: c.candidate.env,
    seconds: {
      diff: cost.diff / 1000,
      low: cost.interval ? cost.interval.low / 1000 : null,
      high: cost.interval ? cost.interval.high / 1000 : null,
    },
    per1000: cost.money.per1000,
    occupancyPer1000: cost.money.occupancyPer1000,
    ...cost.pricing,
  };
}

/** "regression", "equivalent within ±10%", "inconclusive, sees ≥ 39%". @param {Comparison} c */
export function outcomeText(c) {
  if (c.outcome === 'equivalent') return `equivalent within ±${unsignedPct(c.threshold)}`;
  if (c.outcome === 'inconclusive') {
    const sees =
      c.detectable.change === null
        ? `inconclusive, ${c.why ?? 'too few samples for a test'}`
        : `inconclusive, sees ≥ ${unsignedPct(c.detectable.change)}`;
    const more = c.samplesToDecide
      ? `; about ${c.samplesToDecide.toLocaleString('en')} samples a side would decide it`
      : '';
    const stopped = c.stopped ? `; sampling stopped: ${c.stopped}` : '';
    return `${sees}${more}${stopped}`;
  }
  return c.outcome ?? 'no number';
}

/**
 * One decision in words: "equivalent within ±5% (sysbench cpu.events_per_second -0.8% [-3.1%, +1.6%])", the
 * interval the outcome was read from beside it.
 * @param {Comparison} c
 */
export function decisionText(c) {
  const [lo, hi] = worseInterval(c.ratio, c.better);
  const interval = Number.isFinite(lo) && Number.isFinite(hi) ? ` [${pct(lo)}, ${pct(hi)}]` : '';
  const change = Number.isFinite(c.worse) ? ` ${pct(c.worse)}${interval}` : '';
  return `${outcomeText(c)} (${c.benchmark} ${c.metric}${change})`;
}

/**
 * The decisions by resource family, in RESOURCES order: "CPU: equivalent within ±5% (sysbench
 * cpu.events_per_second -0.8% [-3.1%, +1.6%])". Described metrics are not counted: they answer no question.
 * @param {Comparison[]} comparisons one candidate against one baseline
 */
export function familySentences(comparisons) {
  /** @type {Map<string, Comparison[]>} */
  const by = new Map();
  for (const c of comparisons.filter(isQuestion)) {
    const resource = decisionOf(c.benchmark)?.resource ?? 'other';
    by.set(resource, [...(by.get(resource) ?? []), c]);
  }
  const rank = (/** @type {string} */ r) => {
    const i = RESOURCES.indexOf(/** @type {any} */ (r));
    return i < 0 ? RESOURCES.length : i;
  };
  return [...by]
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([resource, cs]) => `${resource}: ${cs.map(decisionText).join('; ')}`);
}

/**
 * One of the run's questions: a benchmark's own decision metric. A metric `--gate` adds is decided too, and
 * said by the gate's sentence, not by the answer.
 * @param {Comparison} c
 */
const isQuestion = (c) => c.decision && isDecisionMetric(c.benchmark, c.metric);

/** +75% @param {number} x */
const pct = (x) => `${x >= 0 ? '+' : '-'}${unsignedPct(x)}`;

/**
 * The median of each start-up phase of one environment's lifecycle cell (for what its start-up is made of).
 * @param {import('#model/results.js').Results} results @param {string} envKey @param {string} [distro]
 * @returns {Record<string, number>}
 */
export function startupPhases(results, envKey, distro) {
  const cell = results.cells.find(
    (/** @type {any} */ c) =>
      c.status === 'ok' &&
      c.benchmark === 'lifecycle' &&
      c.environmentKey === envKey &&
      (!distro || c.distro === distro),
  );
  /** @type {Record<string, number>} */
  const out = {};
  for (const m of (cell ? withStartupWithoutImage(cell) : null)?.metrics ?? [])
    if (m.metric.startsWith('startup.') && m.samples.length) out[m.metric] = median(m.samples);
  return out;
}
