// `dind-bench plan`: what a run would do and roughly how long it would take, per benchmark, without
// running anything (so a team can budget runner time for `--profile standard`). With --workload, the
// team's job is checked first, with no engine (everything that can be checked before a pull), then sized:
// cells, samples, wall time and runner cost from the file's `expected` times, and whether it fits the CI
// job's limit (--max-minutes) and the budget (--budget); exit 7 when it does not, before any runner is busy.
import { InvalidArgumentError, Option } from 'commander';
import { designOf, profileSelection } from '../../run/design.js';
import { BILLING_MODELS, DEFAULT_BILLING, DEFAULT_PRICE_PER_MINUTE } from '../../model/job-cost.js';
import { parseDuration } from '../../text/durations.js';
import { log } from '../log.js';
import { addRunSelection } from '../options.js';

/**
 * @typedef {{ advice?: string, maxMinutes?: number, budget?: number, pricePerMinute?: number,
 *   billing: import('../../model/job-cost.js').Billing }} SizingOptions
 */

/** The limits a workload's run must fit: the CI job's, the budget. @param {SizingOptions} opts */
function limitsOf(opts) {
  const job =
    opts.advice === 'workflow'
      ? 'the time its bench job leaves it'
      : `the CI job's limit (--max-minutes ${opts.maxMinutes})`;
  return [
    ...(opts.maxMinutes ? [{ limitS: opts.maxMinutes * 60, what: job }] : []),
    ...(opts.budget ? [{ limitS: opts.budget / 1000, what: 'the budget (--budget)' }] : []),
  ];
}

/** @param {SizingOptions} opts */
const pricingOf = (opts) => ({ price: opts.pricePerMinute ?? DEFAULT_PRICE_PER_MINUTE, billing: opts.billing });

/** @param {string} v */
function durationMs(v) {
  const ms = parseDuration(v);
  if (!(ms > 0))
    throw new InvalidArgumentError(`expected a duration such as 15m, 90s or 1h30m, got ${JSON.stringify(v)}`);
  return ms;
}

/** @param {string} v */
function minutesOf(v) {
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= 1 && n <= 6 * 60))
    throw new InvalidArgumentError(`expected whole minutes from 1 to 360 (a CI job's limit), got ${JSON.stringify(v)}`);
  return n;
}

/** @param {string} v */
function price(v) {
  const n = Number(v);
  if (!(Number.isFinite(n) && n >= 0 && n < 1000))
    throw new InvalidArgumentError(`expected a price in dollars per minute such as 0.006, got ${JSON.stringify(v)}`);
  return n;
}

/**
 * The options that size a run against its limits and price it (with --workload).
 * @param {import('commander').Command} command
 */
function withSizing(command) {
  return command
    .option(
      '--workload <file>',
      'your CI job (docs/workloads.md): checked with no engine, then sized from its expected times: cells, samples, wall time, runner cost, and whether it fits (exit 7 when it does not)',
    )
    .option(
      '--max-minutes <n>',
      "the limit of the CI job the run goes in, in minutes (the reusable workflow's bench job: 240); with --workload",
      minutesOf,
    )
    .option(
      '--budget <duration>',
      "the run's wall-time budget (e.g. 45m), as run takes it; with --workload",
      durationMs,
    )
    .option(
      '--price-per-minute <usd>',
      `what one runner minute costs you, for the runner cost (default ${DEFAULT_PRICE_PER_MINUTE}: a GitHub-hosted Linux 2-core minute)`,
      price,
    )
    .option(
      '--json',
      "the plan as JSON on stdout: the run's estimate (totalS, setupS, per benchmark) and, with --workload, the sized workload plan",
    )
    .addOption(
      new Option('--billing <model>', 'how runner minutes count: hosted (per started minute) or occupancy (per second)')
        .choices([...BILLING_MODELS])
        .default(DEFAULT_BILLING),
    )
    .addOption(
      new Option(
        '--advice <for>',
        "what a plan that does not fit tells you to change: plan's options (cli) or the reusable workflow's inputs (workflow, as its plan step asks)",
      )
        .choices(['cli', 'workflow'])
        .default('cli'),
    );
}

/** @param {import('commander').Command} cli */
export function register(cli) {
  withSizing(
    addRunSelection(
      cli
        .command('plan')
        .description('estimate the wall time of a run per benchmark, from the parameters, without running it'),
    ),
  ).action(async (opts, command) => {
    const [{ estimateRun }, { loadParamOverrides, paramsFor }, { makePlan }, { textTable }] = await Promise.all([
      import('../../run/estimate.js'),
      import('../../run/params.js'),
      import('../../run/plan.js'),
      import('../../text/tables.js'),
    ]);
    const paramOverrides = opts.config ? await loadParamOverrides(opts.config) : {};
    // The workload is checked before anything is planned: a bad file fails here, naming file and field.
    const job = opts.workload
      ? await (
          await import('../../run/workload.js')
        ).withWorkload(opts.workload, command.getOptionValueSource('bench') === 'cli' ? opts.bench : [])
      : null;
    const named = ['bench', 'env', 'engine', 'distro'].filter((k) => command.getOptionValueSource(k) === 'cli');
    // The profile's own cells unless the command line (or a workload) chose them, as `run` plans them.
    const chosen = profileSelection(opts.profile, {
      benchmarks: opts.bench,
      environments: opts.env,
      named: job ? [...named, 'workload'] : named,
    });
    opts.env = chosen.environments;
    const benchmarks = job ? job.benchmarks : chosen.benchmarks;
    const { iterations, warmup, engines, nextLine, profile } = designOf({
      ...opts,
      environments: opts.env,
      engines: opts.engine,
      benchmarks,
      named: job ? [...named, 'workload'] : named,
    });
    const plan = makePlan({
      benchmarks,
      environments: opts.env,
      distros: opts.distro,
      engines,
      iterations,
      warmup,
      nextLine,
      only: chosen.only,
    });
    const registry = job?.registry;
    const est = estimateRun({ plan, profile: opts.profile, paramOverrides, registry });
    const rows = est.benchmarks.map((b) => [
      b.benchmark,
      JSON.stringify(paramsFor(b.benchmark, opts.profile, paramOverrides, registry)),
      String(b.perIterationS),
      String(b.steps),
      minutes(b.totalS),
    ]);
    rows.push(['setup', '', '', '', minutes(est.setupS)]);
    rows.push(['total', '', '', '', minutes(est.totalS)]);
    log(
      `profile ${opts.profile}: ${iterations} iterations + ${warmup} warm-up, environments ${opts.env.join(', ')}, distros ${opts.distro.join(', ')}`,
    );
    log(textTable(['benchmark', 'parameters', 'tool s/step', 'steps', 'estimate'], rows));
    if (!job) {
      if (opts.json) printJson(est, null);
      log(
        '\nAn estimate from the parameters and overheads measured on a 2-core runner (see src/run/estimate.js); measure yours with --iterations 1 and scale.',
      );
      return;
    }
    const sized = await logWorkloadPlan(opts, {
      job,
      plan,
      iterations,
      warmup,
      profile,
      paramOverrides,
      totalS: est.totalS,
    });
    if (opts.json) printJson(est, sized);
    // 7, as `run --budget-strict` refuses a run that does not fit.
    if (!sized.fits)
      process.exitCode = (await import('../../reading/gate.js')).exitCodeOf({ stopped: 'does not fit' }, 'plan');
  });
}

/**
 * `plan --json`: what the tables say, for a script (bench/workload-plan.js compares it with a run's wall time).
 * @param {{ totalS: number, setupS: number, benchmarks: unknown[] }} est
 * @param {import('../../run/workload-plan.js').WorkloadPlan | null} workload
 */
function printJson(est, workload) {
  const estimate = { totalS: est.totalS, setupS: est.setupS, benchmarks: est.benchmarks };
  process.stdout.write(`${JSON.stringify({ estimate, workload }, null, 2)}\n`);
}

/**
 * The workload's part of the plan: per environment, the totals, and each limit it fits or not.
 * @param {any} opts the command's options
 * @param {{ job: Awaited<ReturnType<typeof import('../../run/workload.js').withWorkload>>,
 *   plan: ReturnType<typeof import('../../run/plan.js').makePlan>, iterations: number, warmup: number,
 *   profile: { budgetMs?: number }, paramOverrides: import('../../run/params.js').ParamOverrides, totalS: number }} a
 */
async function logWorkloadPlan(opts, { job, plan, iterations, warmup, profile, paramOverrides, totalS }) {
  const [{ textTable }, { CLI_ADVICE, sizeWorkloadPlan, workflowAdvice, workloadPlanText }] = await Promise.all([
    import('../../text/tables.js'),
    import('../../run/workload-plan.js'),
  ]);
  const limits = limitsOf(opts);
  const pricing = pricingOf(opts);
  const sized = sizeWorkloadPlan({
    plan,
    profile: opts.profile,
    iterations,
    warmup,
    registry: job.registry,
    paramOverrides,
    workload: job.workload,
    benchmark: job.benchmarks[0],
    ...pricing,
    limits,
  });
  const text = workloadPlanText(sized, pricing, opts.advice === 'workflow' ? workflowAdvice(opts.engine) : CLI_ADVICE);
  log(
    `\n${job.benchmarks[0]} (${job.workload.file}): checked, no engine asked (the file, its folder, its compose file, references, credentials' variables, limits)` +
      (job.notes.length ? '; its images:' : ''),
  );
  for (const note of job.notes) log(`  - ${note}`);
  log(textTable(text.header, text.rows));
  for (const line of text.lines) log(line);
  if (profile.budgetMs && totalS > profile.budgetMs / 1000 && !opts.budget)
    log(
      `over the ${opts.profile} profile's budget of ${Math.round(profile.budgetMs / 60_000)} min: run keeps the job's planned iterations (it is named) and goes over it, with no adaptive rounds`,
    );
  log(
    "A job's estimate is its expected time (docs/workloads.md); a run re-plans the rest from its first measured jobs, said on its progress lines.",
  );
  return sized;
}

/** @param {number} s */
function minutes(s) {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 6) / 10} min`;
  return `${Math.round(s / 360) / 10} h`;
}
