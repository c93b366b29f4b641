// Options more than one subcommand takes, defined once (as asv's common_args does), so `run`, `plan` and
// `images build` cannot drift apart; and the parsing of their values, with an error that lists the
// valid names.
import { InvalidArgumentError, Option } from 'commander';
// Names from ./names.js, not from the registries: --help must not load the benchmarks and dockerode.
import { BENCHMARK_NAMES, DEFAULT_BENCHMARKS, DEFAULT_ENVIRONMENTS, ENVIRONMENT_NAMES } from './names.js';
import { ALL_ENGINE_VERSIONS, DEFAULT_ENGINE, DISTROS } from '../images/catalog.js';
import { PROFILE_NAMES } from '../run/profiles.js';
import { namesIn } from '../text/lists.js';

/**
 * @param {readonly string[]} valid
 * @param {string} what e.g. "benchmark"
 * @returns {(value: string) => string[]}
 */
export function listOf(valid, what) {
  return (value) =>
    namesIn(value, valid, {
      empty: `no ${what} given`,
      unknown: (names) => `unknown ${what}${names.length > 1 ? 's' : ''} ${names.join(', ')}`,
      ErrorClass: InvalidArgumentError,
    });
}

/** @param {string} value */
export function positiveInt(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a whole number of at least 1, got ${JSON.stringify(value)}`);
  return n;
}

/** --bench: which benchmarks (default: all but isolation, named only). @param {string} [what] how the help names them */
export const benchOption = (what = 'benchmarks') =>
  new Option('--bench <list>', `${what} (${BENCHMARK_NAMES.join(', ')})`)
    .argParser(listOf(BENCHMARK_NAMES, 'benchmark'))
    .default(DEFAULT_BENCHMARKS);

/** --env: which environments (default: all). */
export const envOption = () =>
  new Option('--env <list>', `environments (${ENVIRONMENT_NAMES.join(', ')})`)
    .argParser(listOf(ENVIRONMENT_NAMES, 'environment'))
    .default(DEFAULT_ENVIRONMENTS);

/**
 * --distro: which image distributions. Default: Debian, which builds offline everywhere; Alpine needs a
 * registry or its base image present, so it is asked for (offline its cells are reported unavailable).
 */
export const distroOption = (what = 'image distributions') =>
  new Option('--distro <list>', `${what} (${DISTROS.join(', ')}; alpine needs a registry or its base image here)`)
    .argParser(listOf(DISTROS, 'distribution'))
    .default(['debian']);

/**
 * --engine: which inner Engine versions DinD runs (a run: every line, those built from source too).
 * @param {string} what @param {readonly string[]} fallback @param {readonly string[]} choices
 */
export const engineOption = (
  what = 'inner Engine versions for DinD',
  fallback = [DEFAULT_ENGINE],
  choices = ALL_ENGINE_VERSIONS,
) =>
  new Option('--engine <list>', `${what} (${choices.join(', ')})`)
    .argParser(listOf(choices, 'engine version'))
    .default(fallback);

/** --profile: how long and how often. */
export const profileOption = () =>
  new Option('--profile <name>', 'how long and how often').choices(PROFILE_NAMES).default('quick');

/** --iterations: measured iterations per cell. */
export const iterationsOption = () =>
  new Option('--iterations <n>', "measured iterations per cell (default: the profile's)").argParser(positiveInt);

/**
 * What `run` and `plan` share: the cells (benchmarks x environments x distributions x engines), the
 * profile and iterations, and the parameter overrides. `plan` estimates exactly what `run` would do.
 * @param {import('commander').Command} command
 */
export function addRunSelection(command) {
  return command
    .addOption(profileOption())
    .addOption(benchOption())
    .addOption(envOption())
    .addOption(distroOption())
    .addOption(engineOption())
    .addOption(iterationsOption())
    .option(
      '--config <file>',
      'JSON file of per-benchmark parameter overrides, e.g. {"fio": {"size": "64M"}} (see README)',
    );
}
