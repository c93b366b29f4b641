// `dind-bench plan`: what a run would do and roughly how long it would take, per benchmark, without
// running anything (so a team can budget runner time for `--profile standard`).
import { Option } from 'commander';
import { BENCHMARK_NAMES } from '../../benchmarks/index.js';
import { ENVIRONMENT_NAMES } from '../../environments/index.js';
import { DEFAULT_ENGINE, DISTROS, ENGINE_VERSIONS } from '../../images/catalog.js';
import { isDind } from '../../environments/index.js';
import { estimateRun } from '../../run/estimate.js';
import { loadParamOverrides, paramsFor } from '../../run/params.js';
import { makePlan } from '../../run/plan.js';
import { PROFILES, PROFILE_NAMES } from '../../run/profiles.js';
import { textTable } from '../../results/report.js';
import { listOf, positiveInt } from '../lists.js';
import { log } from '../log.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('plan')
    .description('estimate the wall time of a run per benchmark, from the parameters, without running it')
    .addOption(new Option('--profile <name>', 'how long and how often').choices(PROFILE_NAMES).default('quick'))
    .option('--bench <list>', `benchmarks (${BENCHMARK_NAMES.join(', ')})`, listOf(BENCHMARK_NAMES, 'benchmark'), BENCHMARK_NAMES)
    .option('--env <list>', `environments (${ENVIRONMENT_NAMES.join(', ')})`, listOf(ENVIRONMENT_NAMES, 'environment'), ENVIRONMENT_NAMES)
    .option('--distro <list>', `image distributions (${DISTROS.join(', ')})`, listOf(DISTROS, 'distribution'), ['debian'])
    .option('--engine <list>', `inner Engine versions for DinD (${ENGINE_VERSIONS.join(', ')})`, listOf(ENGINE_VERSIONS, 'engine version'), [DEFAULT_ENGINE])
    .option('--iterations <n>', "measured iterations per cell (default: the profile's)", positiveInt)
    .option('--config <file>', 'JSON file of per-benchmark parameter overrides, as for `run --config`')
    .action(async (opts) => {
      const paramOverrides = opts.config ? await loadParamOverrides(opts.config) : {};
      const profile = PROFILES[opts.profile];
      const iterations = opts.iterations ?? profile.iterations;
      const plan = makePlan({
        benchmarks: opts.bench,
        environments: opts.env,
        distros: opts.distro,
        engines: opts.env.some(isDind) ? opts.engine : [],
        iterations,
        warmup: profile.warmup,
      });
      const est = estimateRun({ plan, profile: opts.profile, paramOverrides });
      const rows = est.benchmarks.map((b) => [
        b.benchmark,
        JSON.stringify(paramsFor(b.benchmark, opts.profile, paramOverrides)),
        String(b.perIterationS),
        String(b.steps),
        minutes(b.totalS),
      ]);
      rows.push(['DinD setup', '', '', '', minutes(est.setupS)]);
      rows.push(['total', '', '', '', minutes(est.totalS)]);
      log(`profile ${opts.profile}: ${iterations} iterations + ${profile.warmup} warm-up, environments ${opts.env.join(', ')}, distros ${opts.distro.join(', ')}`);
      log(textTable(['benchmark', 'parameters', 'tool s/step', 'steps', 'estimate'], rows));
      log('\nAn estimate from the parameters and overheads measured on a 2-core runner (see src/run/estimate.js); measure yours with --iterations 1 and scale.');
    });
}

/** @param {number} s */
function minutes(s) {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 6) / 10} min`;
  return `${Math.round(s / 360) / 10} h`;
}
