// `dind-bench plan`: what a run would do and roughly how long it would take, per benchmark, without
// running anything (so a team can budget runner time for `--profile standard`).
import { designOf, profileSelection } from '../../run/design.js';
import { log } from '../log.js';
import { addRunSelection } from '../options.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  addRunSelection(
    cli
      .command('plan')
      .description('estimate the wall time of a run per benchmark, from the parameters, without running it'),
  ).action(async (opts, command) => {
    const [{ estimateRun }, { loadParamOverrides, paramsFor }, { makePlan }, { textTable }] = await Promise.all([
      import('../../run/estimate.js'),
      import('../../run/params.js'),
      import('../../run/plan.js'),
      import('../../text/tables.js'),
    ]);
    const paramOverrides = opts.config ? await loadParamOverrides(opts.config) : {};
    const named = ['bench', 'env', 'engine', 'distro'].filter((k) => command.getOptionValueSource(k) === 'cli');
    // The profile's own cells unless the command line chose them, as `run` plans them.
    const chosen = profileSelection(opts.profile, { benchmarks: opts.bench, environments: opts.env, named });
    opts.bench = chosen.benchmarks;
    opts.env = chosen.environments;
    const { iterations, warmup, engines, nextLine } = designOf({
      ...opts,
      environments: opts.env,
      engines: opts.engine,
      benchmarks: opts.bench,
      named,
    });
    const plan = makePlan({
      benchmarks: opts.bench,
      environments: opts.env,
      distros: opts.distro,
      engines,
      iterations,
      warmup,
      nextLine,
      only: chosen.only,
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
    log(
      `profile ${opts.profile}: ${iterations} iterations + ${warmup} warm-up, environments ${opts.env.join(', ')}, distros ${opts.distro.join(', ')}`,
    );
    log(textTable(['benchmark', 'parameters', 'tool s/step', 'steps', 'estimate'], rows));
    log(
      '\nAn estimate from the parameters and overheads measured on a 2-core runner (see src/run/estimate.js); measure yours with --iterations 1 and scale.',
    );
  });
}

/** @param {number} s */
function minutes(s) {
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 6) / 10} min`;
  return `${Math.round(s / 360) / 10} h`;
}
