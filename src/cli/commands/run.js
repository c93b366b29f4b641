// `dind-bench run`: benchmarks x environments x distributions, interleaved, into DIR/results.json.
import path from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { BILLING_MODELS, DEFAULT_BILLING } from '../../model/job-cost.js';
import { POLICY_HELP, parsePolicy, policyText } from '../../model/isolation.js';
import { parseDuration } from '../../text/durations.js';
import { splitList } from '../../text/lists.js';
import { log } from '../log.js';
import { addRunSelection } from '../options.js';

/** --budget's value in milliseconds. @param {string} v */
function duration(v) {
  const ms = parseDuration(v);
  if (!(ms > 0))
    throw new InvalidArgumentError(`expected a duration such as 15m, 90s or 1h30m, got ${JSON.stringify(v)}`);
  return ms;
}

/**
 * --baseline and --candidate, both or neither; checked against the plan's environments by the run.
 * @param {{baseline?: string, candidate?: string}} opts
 */
function pairOf({ baseline, candidate }) {
  if (!baseline && !candidate) return undefined;
  if (!baseline || !candidate) throw new InvalidArgumentError('--baseline and --candidate go together');
  if (baseline === candidate) throw new InvalidArgumentError('--baseline and --candidate name the same environment');
  return { baseline, candidate };
}

/** --price-per-minute's value: dollars, a finite number from 0. @param {string} v */
function price(v) {
  const n = Number(v);
  if (!(Number.isFinite(n) && n >= 0 && n < 1000))
    throw new InvalidArgumentError(`expected a price in dollars per minute such as 0.006, got ${JSON.stringify(v)}`);
  return n;
}

/** --policy's value: checked now, recorded in its normal spelling. @param {string} v */
function policy(v) {
  try {
    return policyText(parsePolicy(v));
  } catch (e) {
    throw new InvalidArgumentError(/** @type {Error} */ (e).message);
  }
}

/** --billing: how the cost per job counts runner minutes (src/model/job-cost.js). */
const billingOption = () =>
  new Option(
    '--billing <model>',
    "how runner minutes count for the cost per job: hosted (per started minute, as GitHub bills) or occupancy (per second of runner time at the runner's price)",
  )
    .choices([...BILLING_MODELS])
    .default(DEFAULT_BILLING);

/** `run`'s exit codes (src/run/command.js EXIT), in its --help. */
const EXIT_CODES = `
Exit codes:
  0  every cell that could run here ran
  1  bad usage, or the run could not start
  3  some cell failed (results written, the failure recorded with its reason)
  5  an engine went away and did not come back (results say "interrupted": run --resume DIR)
  6  the run measured less than its profile plans: cells the profile added by default were left out for
     the budget, named before the first step and at the top of the report (everything named ran)
  7  --budget-strict: the budget cannot hold what was asked for: refused before the first step (naming the
     budget that would), or stopped before going over (results say "interrupted": run --resume DIR)`;

/** @param {import('commander').Command} cli */
export function register(cli) {
  addRunSelection(
    cli
      .command('run')
      .description('run benchmarks in native, docker and DinD environments, interleaved, and write DIR/results.json'),
  )
    .option('--runner-labels <list>', 'labels of this runner, recorded with the results', splitList)
    .option('--no-build', 'do not build missing images; their cells are reported unavailable')
    .option(
      '--budget <duration>',
      'wall-time budget of the whole run (e.g. 15m): decided at plan time, before the first step. What you name (--bench, --workload, --env, --engine, --distro) is always kept at its planned iterations, over the budget if need be; only cells the profile added by default may be left out (named then and at the top of the report; exit 6). After the plan, add iterations where DinD vs Docker is still too wide to show 5%, while it lasts',
      duration,
    )
    .option(
      '--budget-strict',
      'with --budget: refuse to start (exit 7) when the budget cannot hold what was asked for, naming the budget that would, and stop (exit 7, resumable) when the run is projected past it',
    )
    .option(
      '--baseline <key>',
      'with --candidate: the run is an A/B of two of its environments (e.g. dind@20.10): the rounds after the plan aim at that comparison (then `compare --baseline --candidate`)',
    )
    .option('--candidate <key>', 'with --baseline: the environment judged against it (e.g. dind@26.1)')
    .option('--out <dir>', 'folder for results.json (written as it goes), report.md and raw/ (no results.json yet)')
    .option('--resume <dir>', 'continue the interrupted run in DIR with its recorded options (others are ignored)')
    .option(
      '--workload <file>',
      'your own CI job (a workload YAML file, see docs/workloads.md), run as a job in every environment; with --bench, the benchmarks too',
    )
    .option(
      '--price-per-minute <usd>',
      'what one runner minute costs you, for the cost per job (an hourly price / 60; default: a GitHub-hosted Linux 2-core minute, see docs/workloads.md)',
      price,
    )
    .addOption(billingOption())
    .option(
      '--policy <list>',
      `the isolation a mode must have, e.g. no-privileged,no-runner-engine (${POLICY_HELP}): the mode table marks the modes that meet it and names the cheapest (run --bench isolation to measure the facts)`,
      policy,
    )
    .addHelpText('after', EXIT_CODES)
    .action(async (opts, command) => {
      // Loaded here, not at start: `--help` and other commands never pay for dockerode and the benchmarks.
      const [{ outerEngine }, { resumeCommand, runCommand }, { loadParamOverrides }, { withWorkload }] =
        await Promise.all([
          import('../../engine/client.js'),
          import('../../run/command.js'),
          import('../../run/params.js'),
          import('../../run/workload.js'),
        ]);
      if (opts.resume) {
        if (opts.out && path.resolve(opts.out) !== path.resolve(opts.resume)) {
          throw new Error('--resume DIR continues the run in DIR: leave out --out');
        }
        process.exitCode = (await resumeCommand({ outer: outerEngine(), dir: opts.resume, log })).exitCode;
        return;
      }
      if (!opts.out) throw new Error("required option '--out <dir>' not specified (or --resume DIR to continue a run)");
      if (opts.budgetStrict && opts.budget === undefined)
        throw new Error('--budget-strict goes with --budget: a strict limit is one you set (e.g. --budget 15m)');
      // What the command line named is never left out for the budget (src/run/budget.js); recorded in run.args.
      const named = ['bench', 'env', 'engine', 'distro'].filter((k) => command.getOptionValueSource(k) === 'cli');
      if (opts.workload) named.push('workload');
      // Validated before anything starts; recorded in results (run.args.paramOverrides).
      const paramOverrides = opts.config ? await loadParamOverrides(opts.config) : {};
      // A workload is loaded and checked before anything runs; its job joins the registry as a benchmark.
      if (opts.workload) opts.workload = path.resolve(opts.workload); // recorded: a resume reads it again
      const job = opts.workload
        ? await withWorkload(opts.workload, command.getOptionValueSource('bench') === 'cli' ? opts.bench : [], {
            docker: outerEngine(),
            log,
          })
        : null;
      // The profile's own cells unless the command line chose them (src/run/design.js profileSelection).
      const { profileSelection } = await import('../../run/design.js');
      const chosen = profileSelection(opts.profile, { benchmarks: opts.bench, environments: opts.env, named });
      const { exitCode } = await runCommand({
        outer: outerEngine(),
        profile: opts.profile,
        benchmarks: job ? job.benchmarks : chosen.benchmarks,
        registry: job?.registry,
        environments: chosen.environments,
        only: chosen.only,
        distros: opts.distro,
        engines: opts.engine,
        iterations: opts.iterations,
        out: opts.out,
        build: opts.build,
        runnerLabels: opts.runnerLabels,
        budgetMs: opts.budget,
        budgetStrict: Boolean(opts.budgetStrict),
        pair: pairOf(opts),
        named,
        args: { ...opts, paramOverrides, named },
        paramOverrides,
        log,
      });
      process.exitCode = exitCode;
    });
}
