// `dind-bench workflow matrix`: the job matrix of .github/workflows/bench.yml, printed as JSON for
// `strategy.matrix` (the prepare job calls it; see src/workflow/job-matrix.js for the layouts).
import { designOf } from '../../run/design.js';
import { BENCHMARK_NAMES } from '../names.js';
import { benchOption, distroOption, engineOption, iterationsOption, positiveInt, profileOption } from '../options.js';

/** The layouts of job-matrix.js, for the help text (that module is loaded only when the command runs). */
const LAYOUTS = ['separate', 'interleaved', 'both'];

/** @param {import('commander').Command} cli */
export function register(cli) {
  const workflow = cli.command('workflow').description('helpers for the GitHub Actions workflows in .github/workflows');
  workflow
    .command('matrix')
    .description('print the benchmark job matrix (JSON) from the workflow inputs and the image matrix')
    .requiredOption('--runners <sets>', 'runner label sets, e.g. "self-hosted,linux,gce; self-hosted,linux,lab"')
    .addOption(benchOption())
    // The bake file's image matrix decides which of these the workflow has: job-matrix.js checks them against it.
    .addOption(distroOption('image distributions (from the bake file)'))
    .addOption(engineOption('inner Engine versions for DinD (from the bake file)'))
    .option('--host-engines <list>', 'host Engine versions: each adds the runner label docker-<version>', '')
    .option('--layout <name>', `separate jobs, interleaved in one job, or both (${LAYOUTS.join(', ')})`, 'both')
    .option('--bake-matrix <json>', 'the image matrix as printed by `images matrix` (default: read the bake file)')
    .addOption(profileOption())
    .addOption(iterationsOption())
    .option(
      '--max-minutes <n>',
      'split a job whose estimated time (`dind-bench plan`) is over this into shard jobs of one group',
      positiveInt,
    )
    .action(async (opts) => {
      const [{ MatrixInputError, jobMatrix }, { bakeMatrix }, { makePlan }, { estimateRun }] = await Promise.all([
        import('../../workflow/job-matrix.js'),
        import('../../images/matrix.js'),
        import('../../run/plan.js'),
        import('../../run/estimate.js'),
      ]);
      const bake = opts.bakeMatrix ? JSON.parse(opts.bakeMatrix) : await bakeMatrix();
      try {
        const matrix = jobMatrix({
          bake,
          benchmarkNames: BENCHMARK_NAMES,
          inputs: {
            benchmarks: opts.bench,
            distributions: opts.distro,
            engines: opts.engine,
            runners: opts.runners,
            hostEngines: opts.hostEngines,
            layout: opts.layout,
            maxMinutes: opts.maxMinutes,
          },
          estimate: planEstimate(opts, makePlan, estimateRun),
        });
        process.stdout.write(JSON.stringify(matrix) + '\n');
      } catch (e) {
        if (e instanceof MatrixInputError) throw new Error(`${e.message} (workflow inputs of bench.yml)`);
        throw e;
      }
    });
}

/**
 * Seconds `dind-bench plan` estimates for one job's part, with the workflow's distributions and engines.
 * @param {{profile: string, iterations?: number, distro: string[], engine: string[]}} opts
 * @param {typeof import('../../run/plan.js').makePlan} makePlan
 * @param {typeof import('../../run/estimate.js').estimateRun} estimateRun (both loaded by the action)
 * @returns {import('../../workflow/job-matrix.js').Estimate}
 */
function planEstimate(opts, makePlan, estimateRun) {
  return ({ benchmarks, environments }) => {
    const { iterations, warmup, engines } = designOf({ ...opts, environments, engines: opts.engine });
    const plan = makePlan({ benchmarks, environments, distros: opts.distro, engines, iterations, warmup });
    return estimateRun({ plan, profile: opts.profile }).totalS;
  };
}
