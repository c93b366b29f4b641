// A workload's run, sized before it runs (`dind-bench plan --workload FILE`, and the workflow's prepare
// job): its cells, its samples, the jobs it runs (with the unmeasured first job of an engine that outlives
// its jobs), the wall time from the file's own `expected` times, and what the runner costs for it; then
// whether that fits the job limit of the run's CI job and the budget, and if not, how many iterations
// would. Pure: the same estimates `run` plans and budgets with (./estimate.js), no engine asked.
import { GUESSED_JOB_S, jobEstimate, primes, stepEstimate } from '../workload/estimate.js';
import { billedMinutes } from '../model/job-cost.js';
import { onRunnerEngine } from '../model/environments.js';
import { expectedJob } from '../workload/time.js';
import { estimateRun } from './estimate.js';

/**
 * @typedef {{ environment: string, cells: number, samples: number, firstJobs: number, perStepS: number,
 *   from: string, totalS: number }} WorkloadRow
 *   perStepS: one job there (and its build states); from: where that figure comes from; totalS: every
 *   step there, each with what a job costs beyond its own time (a fresh engine's stop), and the first jobs
 * @typedef {{ limitS: number, what: string }} Limit
 * @typedef {{
 *   rows: WorkloadRow[], cells: number, samples: number, jobs: number, setupS: number, totalS: number,
 *   cost: { minutes: number, billedMinutes: number, dollars: number },
 *   limits: Limit[], fits: boolean, over: Limit | null, iterationsThatFit: number | null,
 * }} WorkloadPlan
 */

/**
 * @param {{
 *   plan: ReturnType<typeof import('./plan.js').makePlan>, profile: string, iterations: number, warmup: number,
 *   registry: import('./params.js').BenchmarkRegistry, paramOverrides?: import('./params.js').ParamOverrides,
 *   workload: import('../workload/load.js').Workload, benchmark: string,
 *   price: number, billing: import('../model/job-cost.js').Billing, limits: Limit[],
 * }} a
 *   benchmark: the workload's benchmark name; limits: what the run must fit (the CI job's limit, the budget)
 * @returns {WorkloadPlan}
 */
export function sizeWorkloadPlan(a) {
  const est = estimateRun({ plan: a.plan, profile: a.profile, paramOverrides: a.paramOverrides, registry: a.registry });
  const unavailable = a.registry[a.benchmark].unavailableIn ?? {};
  const cells = a.plan.cells.filter((c) => !(envName(a.plan, c.env) in unavailable));
  const counted = new Set(cells.map((c) => c.key));
  /** @type {WorkloadRow[]} */
  const rows = [];
  for (const e of a.plan.environments) {
    const mine = cells.filter((c) => c.env === e.key && c.benchmark === a.benchmark);
    if (!mine.length) continue;
    const steps = a.plan.steps.filter((s) => mine.some((c) => c.key === s.cell));
    const perStepS = jobEstimate(a.workload, e.name);
    const firstS = a.registry[a.benchmark].estimateFirstIn?.(e.name) ?? 0;
    const kind = onRunnerEngine(e.name) || e.name === 'dind-vfs' ? e.name : 'dind';
    const known = expectedJob(a.workload, e.name, kind);
    const firstJobs = primes(a.workload, e.name) ? mine.length : 0;
    rows.push({
      environment: e.key,
      cells: mine.length,
      samples: steps.filter((s) => !s.warmup).length,
      firstJobs,
      perStepS,
      from: known ? known.from : `guessed (${GUESSED_JOB_S} s a job: give expected in the file)`,
      // With a fresh engine's stop after each job, and the first unmeasured job.
      totalS: steps.length * stepEstimate(a.workload, e.name) + firstS,
    });
  }
  const measured = a.plan.steps.filter((s) => counted.has(s.cell));
  const samples = measured.filter((s) => !s.warmup).length;
  const jobs = rows.reduce((n, r) => n + r.samples + r.firstJobs, 0) + warmups(rows, a.plan, a.benchmark);
  const totalS = est.totalS;
  const minutes = totalS / 60;
  const billed = billedMinutes(totalS * 1000, a.billing);
  const over = a.limits.find((l) => totalS > l.limitS) ?? null;
  return {
    rows,
    cells: cells.length,
    samples,
    jobs,
    // The environments' setup: the first jobs are in their rows.
    setupS:
      est.setupS -
      a.plan.environments.reduce((sum, e) => sum + (a.registry[a.benchmark].estimateFirstIn?.(e.name) ?? 0), 0),
    totalS,
    cost: { minutes, billedMinutes: billed, dollars: billed * a.price },
    limits: a.limits,
    fits: !over,
    over,
    iterationsThatFit: over ? iterationsWithin(over.limitS, est.setupS, totalS, a.iterations, a.warmup) : null,
  };
}

/** @param {ReturnType<typeof import('./plan.js').makePlan>} plan @param {string} key */
const envName = (plan, key) => plan.environments.find((e) => e.key === key)?.name ?? key;

/** The workload's warm-up jobs (counted as jobs, not samples). @param {WorkloadRow[]} rows
 * @param {ReturnType<typeof import('./plan.js').makePlan>} plan @param {string} bench
 */
function warmups(rows, plan, bench) {
  const keys = new Set(rows.map((r) => r.environment));
  return plan.steps.filter(
    (s) => s.warmup && plan.cells.some((c) => c.key === s.cell && c.benchmark === bench && keys.has(c.env)),
  ).length;
}

/**
 * The most iterations whose rounds and setup fit `limitS` (0 when not even one does): every round costs
 * the same, the setup once.
 * @param {number} limitS @param {number} setupS @param {number} totalS @param {number} iterations @param {number} warmup
 */
export function iterationsWithin(limitS, setupS, totalS, iterations, warmup) {
  const roundS = (totalS - setupS) / (iterations + warmup);
  if (!(roundS > 0)) return iterations;
  return Math.max(0, Math.floor((limitS - setupS) / roundS) - warmup);
}

/**
 * @typedef {{ iterations: number, smaller: string[] }} WorkflowFix
 *   for a run in the reusable workflow's bench job: the plan's iterations, and the smaller plans of fewer
 *   environments that fit, each named by the inputs that set it (`layout: separate (...)`)
 */

/**
 * What makes a plan over its limit fit, in the reusable workflow's inputs (it has no environments input):
 * fewer samples (input iterations), with how much wider each interval gets (as 1/sqrt(n): about), or
 * fewer environments (the smaller plans sized by the caller).
 * @param {WorkloadPlan} p @param {WorkflowFix} fix
 */
function workflowFix(p, fix) {
  const n = p.iterationsThatFit ?? 0;
  const fewer =
    n >= 2
      ? [
          `iterations: ${n} (${n} samples a side instead of ${fix.iterations}: each interval about ` +
            `${Math.sqrt(fix.iterations / n).toFixed(2)}x as wide)`,
        ]
      : [];
  const all = [...fewer, ...fix.smaller];
  if (!all.length)
    return (
      ': no smaller plan fits (not two iterations a side, not one environment group alone): shorten the job ' +
      "(its expected times) or give it a bench job with nothing else (input benchmarks: the workload's alone)"
    );
  return `: the smallest plans that fit, by the reusable workflow's inputs: ${all.join('; ')}`;
}

/**
 * The plan in words, for a terminal: one line per environment, then the totals and the verdict.
 * @param {WorkloadPlan} p @param {{ price: number, billing: string }} pricing
 * @param {WorkflowFix | null} [workflow] name the reusable workflow's inputs, not the command's options
 * @returns {{ header: string[], rows: string[][], lines: string[] }}
 */
export function workloadPlanText(p, pricing, workflow = null) {
  const rows = p.rows.map((r) => [
    r.environment,
    String(r.samples),
    r.firstJobs ? `+${r.firstJobs}` : '',
    duration(r.perStepS),
    r.from,
    duration(r.totalS),
  ]);
  const money =
    pricing.billing === 'occupancy'
      ? `${p.cost.minutes.toFixed(1)} runner minutes at $${pricing.price} a minute: $${p.cost.dollars.toFixed(2)}`
      : `${p.cost.billedMinutes} billed minutes (per started minute) at $${pricing.price}: $${p.cost.dollars.toFixed(2)}`;
  const lines = [
    `cells: ${p.cells}, samples: ${p.samples} (jobs run: ${p.jobs}, with the unmeasured first jobs), setup ${duration(p.setupS)}`,
    `estimated wall time: ${duration(p.totalS)}; runner cost of the run: ${money}`,
  ];
  for (const l of p.limits)
    lines.push(
      `${p.totalS > l.limitS ? 'does NOT fit' : 'fits'} ${l.what} (${Math.round(l.limitS / 60)} min)` +
        (p.over === l && workflow
          ? workflowFix(p, workflow)
          : p.over === l && p.iterationsThatFit !== null
            ? p.iterationsThatFit > 0
              ? `: ${p.iterationsThatFit} iteration(s) would fit (--iterations ${p.iterationsThatFit}), or split the environments into runs of their own (--env)`
              : ': not even one iteration fits; shorten the job (its expected times) or split the environments into runs of their own (--env)'
            : ''),
    );
  return { header: ['environment', 'samples', 'first jobs', 'per job', 'from', 'estimate'], rows, lines };
}

/** 45 s, 12 min, 3.1 h. @param {number} s */
export function duration(s) {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 6) / 10} min`;
  return `${Math.round(s / 360) / 10} h`;
}
