// `dind-bench compare`: DinD vs Docker (and Docker vs native, Alpine vs Debian) inside a run with intervals,
// p-values and effect sizes; with --history, a verdict per metric against the series' own past; with
// --baseline and --candidate, any two environments of the run, the one against the other.
import { parsePolicy, policyText } from '../../model/isolation.js';
import { InvalidArgumentError, Option } from 'commander';
import { BILLING_MODELS } from '../../model/job-cost.js';

/**
 * --price-per-minute's value, strictly: a whole decimal number of dollars from 0 ("0.006abc" is refused,
 * not read as 0.006).
 * @param {string} v
 */
function pricePerMinute(v) {
  const n = /^\s*\d{1,6}(\.\d{1,12})?\s*$/.test(v) ? Number(v) : NaN;
  if (!(Number.isFinite(n) && n >= 0 && n < 1e6))
    throw new InvalidArgumentError(
      `expected dollars per runner minute such as 0.006 (an hourly price divided by 60), got ${JSON.stringify(String(v).slice(0, 40))}`,
    );
  return n;
}

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('compare')
    .description(
      'compare inside a run (DinD vs Docker, with intervals and effect sizes) and, with --history, against earlier runs',
    )
    .argument('<results>', 'a results.json written by `dind-bench run`')
    .option(
      '--history <dir>',
      'history folder (see `dind-bench publish`): a verdict per metric against earlier runs on this runner',
    )
    .option(
      '--config <file>',
      'JSON thresholds per metric (T, and the history rule), in every mode (see docs/method.md, "Four outcomes")',
    )
    .option(
      '--gate <patterns>',
      'the metrics the gate judges, benchmark/metric patterns with * (e.g. "lifecycle/startup.without_image_ms"); default all',
    )
    .option(
      '--price-per-minute <dollars>',
      "a runner-minute's price, for the cost per job in dollars per 1,000 jobs (an hourly price / 60; default: the run's, else a GitHub-hosted Linux 2-core minute)",
      pricePerMinute,
    )
    .addOption(
      new Option(
        '--billing <model>',
        "how runner minutes count, for every sentence that names money: hosted (per started minute, as GitHub bills) or occupancy (per second of runner time at the runner's price); default: the run's, else hosted",
      ).choices([...BILLING_MODELS]),
    )
    .option(
      '--policy <list>',
      'the isolation a mode must have, e.g. no-privileged,no-runner-engine: the mode table marks the modes that meet it and names the cheapest (default: the policy the run recorded)',
    )
    .option('--modes', 'print only the mode table and its answer (speed and isolation per environment)')
    .option('--markdown <file>', 'write the report as Markdown')
    .option('--json <file>', 'write comparisons and verdicts as JSON')
    .option('--pr-comment <file>', 'write a pull-request comment body (Markdown)')
    .option(
      '--export-gab <dir>',
      "write github-action-benchmark's custom JSON (bigger-is-better.json, smaller-is-better.json)",
    )
    .option('--fail-on-regression', 'the same as --fail-on regression')
    .option(
      '--baseline <env>',
      'with --candidate: compare two environments of this run (e.g. dind@20.10), the one against the other',
    )
    .option('--candidate <env>', 'with --baseline: the environment judged against it (e.g. dind@26.1)')
    .addOption(
      new Option(
        '--fail-on <what>',
        'regression: exit 4 on a regression among the gated metrics; inconclusive: also exit 8 when one could not be judged (fails closed)',
      ).choices(['regression', 'inconclusive']),
    )
    .action(async (results, opts) => {
      if (opts.pricePerMinute !== undefined && !(opts.pricePerMinute >= 0 && opts.pricePerMinute < 1e6))
        throw new Error('--price-per-minute must be a number of dollars, 0 or more');
      if (opts.policy !== undefined) opts.policy = policyText(parsePolicy(opts.policy));
      if (Boolean(opts.baseline) !== Boolean(opts.candidate))
        throw new Error('--baseline and --candidate go together: name the two environments to compare');
      if (opts.baseline) {
        if (opts.history) throw new Error('--baseline/--candidate compare inside the run: leave out --history');
        const { abCommand } = await import('../../compare/command.js');
        const { exitCode } = await abCommand({ results, ...opts });
        process.exitCode = exitCode;
        return;
      }
      const { compareCommand } = await import('../../compare/command.js');
      const { exitCode } = await compareCommand({ results, ...opts });
      process.exitCode = exitCode;
    });
}
