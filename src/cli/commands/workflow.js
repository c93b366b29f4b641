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
    .option('--max-shards <n>', 'refuse a run split into more shard jobs than this, naming what fits', positiveInt)
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
            maxShards: opts.maxShards,
          },
          estimate: planEstimate(opts, makePlan, estimateRun),
        });
        process.stdout.write(JSON.stringify(matrix) + '\n');
      } catch (e) {
        if (e instanceof MatrixInputError) throw new Error(`${e.message} (workflow inputs of bench.yml)`);
        throw e;
      }
    });
  workflow
    .command('workload')
    .description(
      "place a workload in the job matrix: beside each run's benchmarks when its plan fits, else in shard jobs of its own (its samples split, merged into one reading); exit 7, naming what fits, when max-shards of them do not",
    )
    .requiredOption('--matrix <json>', 'the `workflow matrix` output')
    .requiredOption('--workload <file>', 'the workload file (docs/workloads.md), checked with no engine')
    .addOption(profileOption())
    .addOption(iterationsOption())
    .requiredOption('--max-minutes <n>', 'the time budget of one job, as `workflow matrix` took it', positiveInt)
    .option('--max-shards <n>', 'how many shard jobs may hold one workload (1: no split)', positiveInt, 16)
    .action(async (opts) => {
      const { placeWorkload } = await import('../../workflow/workload-shards.js');
      const need = await workloadNeed(opts);
      const { include, placements, refusals } = placeWorkload({
        include: JSON.parse(opts.matrix).include,
        iterations: opts.iterations ?? designOf({ ...opts, environments: [], engines: [] }).iterations,
        maxMinutes: opts.maxMinutes,
        maxShards: opts.maxShards,
        need,
      });
      for (const p of placements)
        process.stderr.write(
          p.beside
            ? `run ${p.group}: the workload (about ${Math.ceil(p.needS / 60)} min with its error) fits beside the benchmarks of job ${p.jobs[0]}\n`
            : `run ${p.group}: the workload in ${p.shards} job(s) of its own (${p.jobs.join(', ')}), ${p.perShard} samples a side each (about ${Math.ceil(p.needS / 60)} min with its error), merged into one reading\n`,
        );
      for (const r of refusals) process.stderr.write(`::error title=dind-bench workload::${r.text}\n`);
      if (refusals.length) {
        process.exitCode = (await import('../../reading/gate.js')).exitCodeOf({ stopped: 'does not fit' }, 'plan');
        return;
      }
      process.stdout.write(JSON.stringify({ include }) + '\n');
    });
}

/**
 * Seconds the workload alone needs in a part of a run, with its estimate's own error: `plan --workload`'s
 * sizing (src/run/workload-plan.js), its file checked first with no engine.
 * @param {{ workload: string, profile: string }} opts
 * @returns {Promise<import('../../workflow/workload-shards.js').NeedSeconds>}
 */
async function workloadNeed(opts) {
  const [{ withWorkload }, { makePlan }, { sizeWorkloadPlan }] = await Promise.all([
    import('../../run/workload.js'),
    import('../../run/plan.js'),
    import('../../run/workload-plan.js'),
  ]);
  const job = await withWorkload(opts.workload, []);
  // What only the runner can check of its images, as `plan --workload` says it.
  for (const note of job.notes) process.stderr.write(`workload: ${note}\n`);
  return ({ environments, engines, distributions, iterations }) => {
    const design = designOf({ profile: opts.profile, iterations, environments, engines });
    const plan = makePlan({
      benchmarks: job.benchmarks,
      environments,
      distros: distributions,
      engines: design.engines,
      iterations: design.iterations,
      warmup: design.warmup,
    });
    const sized = sizeWorkloadPlan({
      plan,
      profile: opts.profile,
      iterations: design.iterations,
      warmup: design.warmup,
      registry: job.registry,
      workload: job.workload,
      benchmark: job.benchmarks[0],
      price: 0,
      billing: 'occupancy',
      limits: [],
    });
    return sized.totalS + sized.margin.seconds;
  };
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
