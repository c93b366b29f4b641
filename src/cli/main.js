// The `dind-bench` command line. Every option is parsed and validated here; the commands themselves
// live in their own modules and receive plain, checked values.
import { Command, Option } from 'commander';
import { BENCHMARK_NAMES } from '../benchmarks/index.js';
import { outerEngine, requireEngine } from '../engine/client.js';
import { ENVIRONMENT_NAMES } from '../environments/index.js';
import { buildImages } from '../images/build.js';
import { DEFAULT_ENGINE, DISTROS, ENGINE_VERSIONS } from '../images/catalog.js';
import { doctor, formatChecks } from '../doctor.js';
import { runCommand } from '../run/command.js';
import { PROFILE_NAMES } from '../run/profiles.js';
import { listOf, positiveInt } from './lists.js';

const log = (/** @type {string} */ s) => process.stderr.write(`${s}\n`);

export function program() {
  const cli = new Command('dind-bench')
    .description('What does Docker-in-Docker cost compared with plain Docker, on this machine? Measured, with raw samples and provenance.')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  cli
    .command('doctor')
    .description('check the engine, cgroups, DinD start mode, buildx and base images; each problem with its fix')
    .option('--json', 'print the checks as JSON')
    .action(async (opts) => {
      const checks = await doctor(outerEngine());
      process.stdout.write(opts.json ? JSON.stringify(checks, null, 2) + '\n' : formatChecks(checks) + '\n');
      process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
    });

  const images = cli.command('images').description('the image matrix: benchmark images per distribution, DinD images per Engine version');
  images
    .command('build')
    .description('build the matrix with docker buildx bake (offline: Debian via debootstrap, Alpine reported unavailable)')
    .option('--distro <list>', `distributions (${DISTROS.join(', ')})`, listOf(DISTROS, 'distribution'), DISTROS)
    .option('--engine <list>', `inner Engine versions for DinD images (${ENGINE_VERSIONS.join(', ')})`, listOf(ENGINE_VERSIONS, 'engine version'), ENGINE_VERSIONS)
    .option('--bench <list>', `benchmark images (${BENCHMARK_NAMES.join(', ')})`, listOf(BENCHMARK_NAMES, 'benchmark'), BENCHMARK_NAMES)
    .option('--pull', 'let bake pull the pinned base images from a registry', false)
    .option('--json', 'print what was built and what is unavailable as JSON')
    .action(async (opts) => {
      const outer = outerEngine();
      await requireEngine(outer);
      const result = await buildImages({ outer, distros: opts.distro, engines: opts.engine, benchImages: opts.bench, pull: opts.pull, log, verbose: true });
      if (opts.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
      else {
        for (const ref of result.built) process.stdout.write(`built        ${ref}\n`);
        for (const [ref, why] of Object.entries(result.unavailable)) process.stdout.write(`unavailable  ${ref}: ${why}\n`);
      }
    });

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
    .option('--no-build', 'do not build missing images; their cells are reported unavailable')
    .requiredOption('--out <dir>', 'folder for results.json, report.md and raw/ (must not hold a results.json yet)')
    .action(async (opts) => {
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
        args: { ...opts },
        log,
      });
      process.exitCode = exitCode;
    });
  return cli;
}

/** @param {string[]} argv */
export async function main(argv) {
  const cli = program();
  try {
    await cli.parseAsync(argv);
  } catch (e) {
    const err = /** @type {any} */ (e);
    if (err && typeof err.exitCode === 'number' && err.code?.startsWith('commander.')) {
      // commander has printed the message (and help where asked); --help and --version exit 0.
      process.exitCode = err.exitCode;
      return;
    }
    log(`dind-bench: ${err?.message ?? err}`);
    process.exitCode = 1;
  }
}
