// `dind-bench workflow matrix`: the job matrix of .github/workflows/bench.yml, printed as JSON for
// `strategy.matrix` (the prepare job calls it; see src/workflow/job-matrix.js for the layouts).
import { BENCHMARK_NAMES } from '../../benchmarks/index.js';
import { bakeMatrix } from '../../images/matrix.js';
import { LAYOUTS, MatrixInputError, jobMatrix } from '../../workflow/job-matrix.js';

/** @param {import('commander').Command} cli */
export function register(cli) {
  const workflow = cli.command('workflow').description('helpers for the GitHub Actions workflows in .github/workflows');
  workflow
    .command('matrix')
    .description('print the benchmark job matrix (JSON) from the workflow inputs and the image matrix')
    .requiredOption('--runners <sets>', 'runner label sets, e.g. "self-hosted,linux,gce; self-hosted,linux,lab"')
    .option('--bench <list>', `benchmarks (${BENCHMARK_NAMES.join(', ')})`, BENCHMARK_NAMES.join(','))
    .option('--distro <list>', 'image distributions (from the bake file)', 'debian')
    .option('--engine <list>', 'inner Engine versions for DinD (from the bake file)', '20.10')
    .option('--host-engines <list>', 'host Engine versions: each adds the runner label docker-<version>', '')
    .option('--layout <name>', `separate jobs, interleaved in one job, or both (${LAYOUTS.join(', ')})`, 'both')
    .option('--bake-matrix <json>', 'the image matrix as printed by `images matrix` (default: read the bake file)')
    .action(async (opts) => {
      const bake = opts.bakeMatrix ? JSON.parse(opts.bakeMatrix) : await bakeMatrix();
      try {
        const matrix = jobMatrix({
          bake,
          benchmarkNames: BENCHMARK_NAMES,
          inputs: { benchmarks: opts.bench, distributions: opts.distro, engines: opts.engine, runners: opts.runners, hostEngines: opts.hostEngines, layout: opts.layout },
        });
        process.stdout.write(JSON.stringify(matrix) + '\n');
      } catch (e) {
        if (e instanceof MatrixInputError) throw new Error(`${e.message} (workflow inputs of bench.yml)`);
        throw e;
      }
    });
}
