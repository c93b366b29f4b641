// readRun: the Reading of a run (#model/reading.d.ts), built once per command and only laid out by every
// output. It holds the run's questions (each decision, with its change in the unit a job pays, its cost per
// 1,000 jobs, its samples and what would decide it), the answer table every output opens with, the caveats
// said once below it, the cost per job of the first answer (the workflow outputs), every comparison (the
// tables below), the workload costs, the mode table and the gate's verdict (its exit code).
import { DEFAULT_THRESHOLD, costChange, defaultThreshold, thresholdText, worseInterval } from '../model/change.js';
import { RESOURCES, decisionOf, isDecisionMetric } from '../model/decisions.js';
import { moneyOf, pricingText } from '../model/job-cost.js';
import { magnitude, unsignedPct } from '../model/numbers.js';
import { parsePolicy } from '../model/isolation.js';
import { FALSE_ALARM_RATE } from './decide.js';
import { JOB_METRIC, STARTUP_METRIC, costAnswer, decideCost, startupPhases } from './answer.js';
import { gateItemsOf, gateOf, gateOfRun } from './gate.js';
import { readAb, readWithinRun } from './index.js';
import { modeTable } from './modes.js';
import { jobParts } from './parts.js';
import { pricingOf, workloadCosts } from './pricing.js';
import { pooledNote } from './pooled.js';
import { LEFT_OUT, detectableTables, memorySeriesNote, problemGroups, samplingNote, summaryTables } from './tables.js';
import { waterfallOf } from './waterfall.js';

/**
 * @typedef {import('#model/reading.js').Reading} Reading
 * @typedef {import('#model/reading.js').Question} Question
 * @typedef {import('./index.js').Comparison} Comparison
 * @typedef {{
 *   price?: number, billing?: import('../model/job-cost.js').Billing,
 *   thresholdOf?: (benchmark: string, metric: string) => number, gate?: string, failOn?: 'regression' | 'inconclusive' | null,
 *   pair?: { baseline: string, candidate: string },
 *   history?: { verdicts: HistoryVerdict[] } | null, policy?: string | null, seed?: number,
 * }} ReadRunOptions
 *   gate: the --gate patterns ("lifecycle/*,workload.*"); pair: an A/B of two environments (compare
 *   --baseline/--candidate) instead of the within-run pairs; history: the run's series judged against their
 *   history (compare --history), what the gate judges within-run; policy: a mode policy given here, over
 *   the one the run recorded
 * @typedef {Omit<Reading, 'comparisons'> & {
 *   comparisons: Comparison[],
 *   jobs: import('../model/job-cost.js').WorkloadCost[], modes: ModesOf, history: { verdicts: HistoryVerdict[] } | null,
 *   complete: boolean, leftOutCells: number, tables: import('./tables.js').SummaryTable[], tooFew: boolean,
 *   detectable: Array<{ title: string, header: string[], rows: string[][] }>,
 *   problems: import('./tables.js').ProblemGroup[], samplingNote: string, seriesNote: string,
 *   waterfall: import('./waterfall.js').Waterfall,
 * }} RunReading
 *   jobs: each workload's job cost per environment; modes: the mode table; tables: per benchmark the medians
 *   and each environment against Docker; tooFew: a comparison in them had too few samples for any test (the
 *   note is said once); detectable: what the run could detect; problems: the cells that did not run, each
 *   reason once
 * @typedef {{ benchmark: string, metric: string, environmentKey: string, distro: string,
 *   status: string, change: number | null, detectable: { change: number | null } }} HistoryVerdict
 */

/**
 * The Reading of a run.
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {ReadRunOptions} [opts]
 * @returns {RunReading}
 */
export function readRun(results, opts = {}) {
  const pricing = pricingOf(results, { price: opts.price, billing: opts.billing });
  const { gated, named } = gateOfRun(opts.gate, results);
  const readOpts = { thresholdOf: opts.thresholdOf ?? defaultThreshold, gated: named, seed: opts.seed };
  const comparisons = opts.pair
    ? readAb(results, opts.pair.baseline, opts.pair.candidate, readOpts)
    : readWithinRun(results, readOpts);
  const questions = questionsOf(results, comparisons, pricing, Boolean(opts.pair));
  const decided = questions.filter((q) => q.outcome !== null && q.outcome !== 'inconclusive').length;
  const history = opts.history ?? null;
  const gate = opts.pair
    ? gateOf(gateItemsOf(comparisons.filter((c) => gated(c.benchmark, c.metric))), opts.failOn ?? null)
    : gateOf(
        (history?.verdicts ?? []).filter((v) => gated(v.benchmark, v.metric)).map(historyItem),
        opts.failOn ?? null,
        history ? null : 'no history was given (--history) to judge this run against',
      );
  const leftOut = leftOutNote(results);
  const cost = costOf(results, comparisons, pricing, opts.pair);
  const tables = summaryTables(results, comparisons);
  return {
    format: 'dind-bench.reading/1',
    run: runOf(results),
    pricing: { ...pricing, text: pricingText(pricing) },
    intro: introOf(results, questions, decided, pricing),
    leftOut,
    questions,
    table: answerTable(questions),
    decided: { decided, of: questions.length },
    caveats: [...notCompared(results, comparisons, Boolean(opts.pair)), ...caveatsOf(results, questions, comparisons)],
    cost,
    // A workload's job in its parts, for the pairs the run asks (DinD against Docker, or the A/B).
    parts: jobParts(opts.pair ? comparisons : comparisons.filter((c) => c.kind === 'dind-vs-docker')),
    gate,
    comparisons,
    jobs: workloadCosts(results, pricing),
    modes: modesOf(results, comparisons, pricing, opts.policy ?? null),
    history,
    complete: results.run.complete !== false,
    leftOutCells: results.cells.filter((c) => c.sampling?.stopped === LEFT_OUT).length,
    tables,
    tooFew: tables.some((t) =>
      t.comparisons.some((row) => row.some((c) => c?.outcome === 'inconclusive' && c.detectable.change === null)),
    ),
    detectable: detectableTables(tables),
    problems: problemGroups(results),
    samplingNote: samplingNote(results),
    seriesNote: memorySeriesNote(results),
    waterfall: waterfallOf(results),
  };
}

/** @param {HistoryVerdict} v @returns {import('#model/reading.js').GateItem} */
const historyItem = (v) => ({
  benchmark: v.benchmark,
  metric: v.metric,
  where: `${v.environmentKey}/${v.distro}`,
  outcome: outcomeOfStatus(v.status),
  change: v.change,
  sees: v.detectable.change,
});

/** A history verdict's status as an outcome ("insufficient data" is not judged). @param {string} s */
const outcomeOfStatus = (s) =>
  /** @type {import('../model/change.js').Outcome} */ (
    s === 'regression' || s === 'improvement' || s === 'equivalent' ? s : 'inconclusive'
  );

/** @param {import('#model/results.js').Results} results */
function runOf(results) {
  const h = results.host;
  return {
    id: results.run.id,
    profile: results.run.profile,
    iterations: results.run.iterations,
    warmup: results.run.warmup,
    runner: results.runner.name,
    host:
      `${h.cpuModel} (${h.cores} cores), ${h.distribution}, cgroup v${h.cgroupVersion}, ` +
      `outer engine ${results.engines.outer.version} (${results.engines.outer.storageDriver})`,
  };
}

/** The order questions are asked in: by environment as the run lists them, then by resource. */
function questionOrder(/** @type {import('#model/results.js').Results} */ results) {
  const envs = results.environments.map((e) => e.key);
  const env = (/** @type {string} */ k) => (envs.includes(k) ? envs.indexOf(k) : envs.length);
  const res = (/** @type {string} */ r) => {
    const i = RESOURCES.indexOf(/** @type {any} */ (r));
    return i < 0 ? RESOURCES.length : i;
  };
  const kind = (/** @type {string} */ k) => (k === 'engine-line' ? 1 : 0);
  return (/** @type {Question} */ a, /** @type {Question} */ b) =>
    kind(a.kind) - kind(b.kind) || env(a.subject) - env(b.subject) || res(a.resource) - res(b.resource);
}

/**
 * The run's questions: every decision of a pair the run asks (DinD-like against Docker, a later Engine line
 * against the oldest, an A/B), and every metric the gate named.
 * @param {import('#model/results.js').Results} results @param {Comparison[]} comparisons
 * @param {import('../model/job-cost.js').Pricing} pricing @param {boolean} ab
 * @returns {Question[]}
 */
function questionsOf(results, comparisons, pricing, ab) {
  // A metric only --gate made a decision of is said by the gate's sentence, not asked as a question.
  const asked = comparisons.filter(
    (c) =>
      c.decision &&
      isDecisionMetric(c.benchmark, c.metric) &&
      (ab || c.kind === 'dind-vs-docker' || c.kind === 'engine-line' || c.kind === 'ab'),
  );
  const distros = new Set(asked.map((c) => c.candidate.distro));
  return asked.map((c) => questionOf(c, pricing, distros.size > 1)).sort(questionOrder(results));
}

/**
 * @param {Comparison} c @param {import('../model/job-cost.js').Pricing} pricing @param {boolean} distroShown
 * @returns {Question}
 */
function questionOf(c, pricing, distroShown) {
  const resource = decisionOf(c.benchmark)?.resource ?? c.benchmark;
  const [lo, hi] = worseInterval(c.ratio, c.better);
  // A decision with too few samples for an interval still has its medians: their change, no interval (the
  // row says inconclusive and why).
  const worse = Number.isFinite(c.worse) ? c.worse : costChange(medianRatio(c), c.better);
  const change = Number.isFinite(worse) ? { value: worse, low: lo, high: hi } : null;
  const paid = paidOf(c);
  const open = c.outcome === 'inconclusive' || c.outcome === null;
  return {
    id: `${c.benchmark}/${c.metric} ${c.candidate.env} vs ${c.baseline.env} (${c.candidate.distro})`,
    resource,
    subject: c.candidate.env,
    baseline: c.baseline.env,
    distro: distroShown ? c.candidate.distro : '',
    kind: c.kind,
    benchmark: c.benchmark,
    metric: c.metric,
    unit: c.unit,
    outcome: c.outcome,
    change,
    paid,
    cost: paid?.unit === 's' && paysPerJob(c) ? costOfPaid(paid, c, pricing) : null,
    threshold: c.threshold ?? DEFAULT_THRESHOLD,
    level: c.level,
    samples: { baseline: c.baseline.n, candidate: c.candidate.n },
    stopped: c.stopped,
    samplesToDecide: open ? c.samplesToDecide : null,
    toDecide: open ? toDecideText(c, pricing) : '',
    sees: open ? c.detectable.change : null,
  };
}

/** The candidate's median over the baseline's (NaN when the baseline's is not positive). @param {Comparison} c */
const medianRatio = (c) => (c.baseline.median > 0 ? c.candidate.median / c.baseline.median : NaN);

/** The metrics a job pays once per job, whose difference in seconds is money: the start-up, the whole job. @param {Comparison} c */
const paysPerJob = (c) =>
  (c.benchmark === 'lifecycle' && c.metric === STARTUP_METRIC) ||
  (c.benchmark.startsWith('workload.') && c.metric === JOB_METRIC);

/**
 * The change in the unit a job pays, from the same estimate and interval the outcome was read from (the
 * ratio times the baseline's median), so the figure always lies inside the interval beside it.
 * @param {Comparison} c @returns {import('#model/reading.js').PaidChange | null}
 */
function paidOf(c) {
  const unit = c.unit === 'ms' ? 's' : c.unit === 'MiB' ? 'MiB' : null;
  const ratio = Number.isFinite(c.ratio.ratio) ? c.ratio.ratio : medianRatio(c);
  if (!unit || c.better !== 'lower' || !Number.isFinite(ratio)) return null;
  const scale = unit === 's' ? 1 / 1000 : 1;
  const base = c.baseline.median * scale;
  const at = (/** @type {number} */ r) => (Number.isFinite(r) ? base * (r - 1) : null);
  return {
    unit,
    diff: base * (ratio - 1),
    low: at(c.ratio.low),
    high: at(c.ratio.high),
    baseline: base,
    candidate: c.candidate.median * scale,
  };
}

/**
 * @param {import('#model/reading.js').PaidChange} paid @param {Comparison} c
 * @param {import('../model/job-cost.js').Pricing} pricing
 */
function costOfPaid(paid, c, pricing) {
  const whole = c.metric === JOB_METRIC ? { baseMs: c.baseline.median, candidateMs: c.candidate.median } : undefined;
  const m = moneyOf(paid.diff * 1000, pricing, whole);
  return { perJob: m.per1000 / 1000, per1000: m.per1000, occupancyPer1000: m.occupancyPer1000, note: m.note };
}

/**
 * What would decide an open question, in words; for a whole job, what those jobs cost.
 * @param {Comparison} c @param {import('../model/job-cost.js').Pricing} pricing
 */
function toDecideText(c, pricing) {
  if (c.why) return c.why;
  const stopped = c.stopped && c.stopped !== 'decided' ? `; ${c.stopped}` : '';
  const jobs = c.metric === JOB_METRIC ? decideCost(c, pricing) : null;
  if (jobs) return `~${jobs.samples.toLocaleString('en')} a side: ${jobs.text.replace(/ \(.*?\),/, ',')}${stopped}`;
  if (c.samplesToDecide) return `~${c.samplesToDecide.toLocaleString('en')} a side${stopped}`;
  return `more than 10,000 a side: a quieter runner${stopped}`;
}

/** "+1.00 s", "-0.35 s". @param {number} s */
const secondsText = (s) => {
  const a = Math.abs(s);
  return `${s < 0 ? '-' : '+'}${a < 1 ? a.toFixed(2) : magnitude(a, 100)} s`;
};
/** "+93 MiB", "+1.5 MiB". @param {number} x */
const mibText = (x) => `${x < 0 ? '-' : '+'}${magnitude(Math.abs(x), 100)} MiB`;
/** "+12%", "-0.8%". @param {number} x */
const pctText = (x) => `${x < 0 ? '-' : '+'}${unsignedPct(x)}`;
/** "+$0.10", "-$1.20", "+$0.004". @param {number} x */
export const dollarsText = (x) => {
  const a = Math.abs(x);
  const digits = a === 0 || a >= 0.01 ? 2 : 3;
  return `${x < 0 ? '-' : '+'}$${a >= 1000 ? Math.round(a).toLocaleString('en') : a.toFixed(digits)}`;
};

/** The question's change as the answer table prints it: the unit a job pays, then its percent. @param {Question} q */
export function changeText(q) {
  if (!q.change) return 'no number';
  const pct = `${pctText(q.change.value)} [${pctText(q.change.low)}, ${pctText(q.change.high)}]`;
  if (!q.paid) return Number.isFinite(q.change.low) ? pct : pctText(q.change.value);
  const f = q.paid.unit === 's' ? secondsText : mibText;
  // The unit once, after the estimate: "+0.48 s [+0.34, +0.66] (+285%)".
  const bare = (/** @type {number} */ x) => f(x).replace(/ (s|MiB)$/, '');
  const interval = q.paid.low !== null && q.paid.high !== null ? ` [${bare(q.paid.low)}, ${bare(q.paid.high)}]` : '';
  return `${f(q.paid.diff)}${interval} (${pctText(q.change.value)})`;
}

/** "regression", "equivalent (±5%)", "inconclusive". @param {Question} q */
export const answerText = (q) =>
  q.outcome === 'equivalent' ? `equivalent ±${thresholdText(q.threshold)}` : (q.outcome ?? 'no number');

/** What a question asks about: its resource ("start-up", "CPU", "job"). @param {Question} q */
export const questionText = (q) => q.resource;

/** The pair a question judges, its group in the answer table: "dind@26.1 vs dind@20.10 (alpine)". @param {Question} q */
export const pairText = (q) => `${q.subject} vs ${q.baseline}${q.distro ? ` (${q.distro})` : ''}`;

export const ANSWER_HEADER = Object.freeze([
  'question',
  'answer',
  'change [interval]',
  '$ per 1,000 jobs',
  'open: what would decide it',
]);

/**
 * The answer table: one row per question, every figure formatted here once; `groups[i]` the pair row i
 * judges (the outputs set each pair's rows under it); `outcomes[i]` its outcome (what an output colours by).
 * @param {Question[]} questions @returns {import('#model/reading.js').AnswerTable}
 */
export function answerTable(questions) {
  return {
    header: [...ANSWER_HEADER],
    groups: questions.map(pairText),
    outcomes: questions.map((q) => q.outcome),
    rows: questions.map((q) => [
      questionText(q),
      answerText(q),
      changeText(q),
      q.cost ? dollarsText(q.cost.per1000) : '–',
      q.toDecide || '–',
    ]),
  };
}

/**
 * The one short paragraph above the answer: the run, its samples, its billing, how many it decided.
 * @param {import('#model/results.js').Results} results @param {Question[]} questions @param {number} decided
 * @param {import('../model/job-cost.js').Pricing} pricing
 */
function introOf(results, questions, decided, pricing) {
  const n = questions.flatMap((q) => [q.samples.baseline, q.samples.candidate]);
  const lo = n.length ? Math.min(...n) : results.run.iterations;
  const hi = n.length ? Math.max(...n) : results.run.iterations;
  const samples = lo === hi ? `${lo} samples a side` : `${lo}–${hi} samples a side`;
  const answered = questions.length
    ? `${decided} of ${questions.length} question${questions.length === 1 ? '' : 's'} decided`
    : 'no question asked (no pair of environments the run compares)';
  return (
    `Run ${results.run.id} (${results.run.profile}, ${samples}) on ${results.runner.name}: ${answered}. ` +
    `Money ${pricingText(pricing)}.`
  );
}

/**
 * The environments the run meant to compare with Docker that it could not, each with why: left out for
 * the budget, failed to start, or no Docker cell beside it. An A/B names its own pair, so none.
 * @param {import('#model/results.js').Results} results @param {Comparison[]} comparisons @param {boolean} ab
 * @returns {string[]}
 */
function notCompared(results, comparisons, ab) {
  if (ab) return [];
  const why = results.environments
    .filter((e) => e.name && e.key !== 'docker' && e.key !== 'native')
    .filter((e) => !comparisons.some((c) => c.kind === 'dind-vs-docker' && c.candidate.env === e.key))
    .map((e) => {
      const cells = results.cells.filter((c) => c.environmentKey === e.key);
      if (cells.length && cells.every((c) => c.sampling?.stopped === LEFT_OUT))
        return `${e.key}: left out for the run's budget`;
      return `${e.key}: ${e.status !== 'ok' ? String(e.reason ?? e.status).split('\n')[0] : 'no Docker cell to compare with'}`;
    });
  return why.length ? [`Not compared with Docker in this run: ${why.join('; ')}.`] : [];
}

/**
 * What is said once, below the answer: how outcomes are read and held, what hosted billing's rounding does,
 * what each start-up is made of.
 * @param {import('#model/results.js').Results} results @param {Question[]} questions @param {Comparison[]} comparisons
 * @returns {string[]}
 */
function caveatsOf(results, questions, comparisons) {
  const out = pooledNote(results);
  // One level, or the range its looks read them at (src/reading/decide.js lookLevels).
  const levels = [...new Set(questions.map((q) => q.level).filter((l) => typeof l === 'number'))].sort();
  const at = (/** @type {number} */ l) => `${Number((l * 100).toFixed(2))}%`;
  const level =
    levels.length > 1
      ? ` (at ${at(levels[0])} to ${at(levels[levels.length - 1])}, by the look it was read at)`
      : levels.length
        ? ` (at ${at(levels[0])})`
        : '';
  if (questions.length)
    out.push(
      `Each answer is read from its interval${level}: wholly beyond +T a regression, ` +
        `beyond -T an improvement, inside ±T equivalent, else inconclusive; wrong decisions are held at ` +
        `${FALSE_ALARM_RATE * 100}% over the run's ${questions.length} question${questions.length === 1 ? '' : 's'} and the looks of its sampling. ` +
        'A change is + when worse for the job.',
    );
  // What hosted billing's rounding does, once per kind: a whole job's billed minutes, a start-up's average.
  for (const whole of [true, false]) {
    const q = questions.find((x) => x.cost?.note && (x.metric === JOB_METRIC) === whole);
    const note = q?.cost?.note ?? '';
    if (note)
      out.push(
        whole
          ? `${note[0].toUpperCase()}${note.slice(1)} (${q?.subject}'s job).`
          : `A start-up's dollars are the average over jobs under hosted billing: ${note} (${q?.subject}).`,
      );
  }
  const startups = questions.filter((x) => x.benchmark === 'lifecycle' && x.metric === STARTUP_METRIC);
  const made = [...new Map(startups.map((q) => [`${q.subject} ${q.distro}`, q])).values()]
    .map((q) => madeOf(q.subject, startupPhases(results, q.subject, q.distro || undefined)))
    .filter(Boolean);
  if (made.length)
    out.push(
      `Start-ups, medians: ${made.join('; ')}. An image's load from the runner's engine is described, not decided: ` +
        "it drifts with the machine's state (a workload measures your own pulls).",
    );
  if (comparisons.some((c) => !c.decision))
    out.push('Every other metric is described below: its change and 95% interval, no outcome.');
  return out;
}

/**
 * "dind 0.62 s (engine ready 0.45 s, first container 0.17 s, then its image 4.3 s)".
 * @param {string} env @param {Record<string, number>} phases
 */
function madeOf(env, phases) {
  const total = phases[STARTUP_METRIC] ?? 0;
  if (!(total > 0)) return '';
  const s = (/** @type {number} */ ms) => secondsText(ms / 1000).slice(1);
  const first = ['startup.first_create_ms', 'startup.first_attach_ms', 'startup.first_start_ms'].reduce(
    (a, k) => a + (phases[k] ?? 0),
    0,
  );
  const engine = Math.max(0, total - first);
  const image = phases['startup.image_load_ms'] ?? 0;
  const parts = [
    ...(engine > 0 && first < total ? [`engine ready ${s(engine)}`] : []),
    `first container ${s(first)}`,
    ...(image > 0 ? [`then its image ${s(image)}`] : []),
  ];
  return `${env} ${s(total)} (${parts.join(', ')})`;
}

/**
 * The cost per job of the first answer (the team's job where measured, else the start-up), for the job
 * summary's first line and the workflow's outputs.
 * @param {import('#model/results.js').Results} results @param {Comparison[]} comparisons
 * @param {import('../model/job-cost.js').Pricing} pricing @param {ReadRunOptions['pair']} pair
 */
function costOf(results, comparisons, pricing, pair) {
  const order = results.environments.map((e) => e.key);
  const against = pair
    ? comparisons
    : comparisons
        .filter((c) => c.kind === 'dind-vs-docker')
        .sort((a, b) => order.indexOf(a.candidate.env) - order.indexOf(b.candidate.env));
  return costAnswer(against, pricing);
}

/**
 * The cells a run left out for its budget, in one sentence ('' when none was).
 * @param {import('#model/results.js').Results} results
 */
export function leftOutNote(results) {
  const cells = results.cells.filter((c) => c.sampling?.stopped === LEFT_OUT);
  if (!cells.length) return '';
  /** @type {Map<string, string[]>} benchmarks per environment and distribution */
  const per = new Map();
  for (const c of cells) {
    const where = c.distro === 'host' ? c.environmentKey : `${c.environmentKey} (${c.distro})`;
    per.set(where, [...(per.get(where) ?? []), c.benchmark]);
  }
  const budget = results.run.budgetMs ? ` of ${Math.round(results.run.budgetMs / 1000)} s` : '';
  const list = [...per].map(([where, b]) => `${where}: ${b.join(', ')}`).join('; ');
  const n = `${cells.length} cell${cells.length > 1 ? 's were' : ' was'}`;
  return `Measured less than planned: ${n} left out for the run's budget${budget}, not measured: ${list}.`;
}

/** @typedef {(import('#model/isolation.js').ModeTable & { policyError: string | null }) | null} ModesOf */

/**
 * The mode table (./modes.js), when the run probed isolation or a policy is given: the policy given here
 * (compare --policy), else the one the run recorded (run --policy), read as untrusted input: a recorded
 * policy that does not parse is left out, and `policyError` says why.
 * @param {import('#model/results.js').Results} results @param {Comparison[]} comparisons
 * @param {import('../model/job-cost.js').Pricing} pricing @param {string | null} given
 * @returns {ModesOf}
 */
function modesOf(results, comparisons, pricing, given) {
  const recorded = results.run?.args?.policy;
  const text = given ?? (typeof recorded === 'string' ? recorded : null);
  if (!results.cells.some((c) => c.benchmark === 'isolation') && !text) return null;
  let policy = null;
  let policyError = null;
  if (text) {
    try {
      policy = parsePolicy(text);
    } catch (e) {
      // A policy given to compare was validated by the command; only a recorded one can fail here.
      policyError = `the policy recorded with the run was ignored: ${/** @type {Error} */ (e).message}`;
    }
  }
  return { ...modeTable(results, comparisons, { policy, ...pricing }), policyError };
}
