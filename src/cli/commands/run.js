// `dind-bench run`: benchmarks x environments x distributions, interleaved, into DIR/results.json.
import { Option } from 'commander';
import { BENCHMARK_NAMES } from '../../benchmarks/index.js';
import { outerEngine } from '../../engine/client.js';
import { ENVIRONMENT_NAMES } from '../../environments/index.js';
import { DEFAULT_ENGINE, DISTROS, ENGINE_VERSIONS } from '../../images/catalog.js';
import { runCommand } from '../../run/command.js';
import { loadParamOverrides } from '../../run/params.js';
import { PROFILE_NAMES } from '../../run/profiles.js';
import { listOf, positiveInt } from '../lists.js';
import { log } from '../log.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('run')
    .description('run benchmarks in native, docker and DinD environments, interleaved, and write DIR/results.json')
    .addOption(new Option('--profile <name>', 'how long and how often').choices(PROFILE_NAMES).default('quick'))
    .option('--bench <list>', `benchmarks (${BENCHMARK_NAMES.join(', ')})`, listOf(BENCHMARK_NAMES, 'benchmark'), BENCHMARK_NAMES)
    .option('--env <list>', `environments (${ENVIRONMENT_NAMES.join(', ')})`, listOf(ENVIRONMENT_NAMES, 'environment'), ENVIRONMENT_NAMES)
    .option('--distro <list>', `image distributions (${DISTROS.join(', ')})`, listOf(DISTROS, 'distribution'), DISTROS)
    .option('--engine <list>', `inner Engine versions for DinD (${ENGINE_VERSIONS.join(', ')})`, listOf(ENGINE_VERSIONS, 'engine version'), [DEFAULT_ENGINE])
    .option('--iterations <n>', 'measured iterations per cell (default: the profile\'s)', positiveInt)
    .option('--runner-labels <list>', 'labels of this runner, recorded with the results', (v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--config <file>', 'JSON file of per-benchmark parameter overrides, e.g. {"fio": {"size": "64M"}} (see README)')
    .option('--no-build', 'do not build missing images; their cells are reported unavailable')
    .requiredOption('--out <dir>', 'folder for results.json, report.md and raw/ (must not hold a results.json yet)')
    .action(async (opts) => {
      // Validated before anything starts; recorded in results (run.args.paramOverrides).
      const paramOverrides = opts.config ? await loadParamOverrides(opts.config) : {};
      const { exitCode } = await runCommand({
        outer: outerEngine(),
        profile: opts.profile,
        benchmarks: opts.bench,
        environments: opts.env,
        distros: opts.distro,
        engines: opts.engine,
        iterations: opts.iterations,
        out: opts.out,
        build: opts.build,
        runnerLabels: opts.runnerLabels,
        args: { ...opts, paramOverrides },
        paramOverrides,
        log,
      });
      process.exitCode = exitCode;
    });
}
