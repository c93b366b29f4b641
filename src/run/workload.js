// `run --workload FILE`: the team's own job joins the run as one more benchmark (../workload/benchmark.js),
// looked up in a registry of its own: every benchmark, plus the job. The file is read and checked in full
// before anything starts (../workload/load.js), then what the runner's engine must hold for it
// (../workload/preflight.js); a resumed run reads the file again from the path it recorded.
import { BENCHMARKS } from '../benchmarks/index.js';
import { ENVIRONMENT_NAMES } from '../environments/names.js';
import { logText } from '../text/escape.js';
import { workloadBenchmark } from '../workload/benchmark.js';
import { WorkloadError, loadWorkload } from '../workload/load.js';
import { checkOnRunner } from '../workload/preflight.js';
import { checkExpectedNames } from '../workload/time.js';

/**
 * @param {string} file the workload file
 * @param {string[]} alsoBenchmarks benchmarks asked for beside it (--bench)
 * @param {import('dockerode')} [runner] the runner's engine: what the job takes from it is checked there
 *   (none for `plan --workload`, which checks everything that needs no engine)
 * @returns {Promise<{ registry: import('./params.js').BenchmarkRegistry, benchmarks: string[], workload: import('../workload/load.js').Workload }>}
 */
export async function withWorkload(file, alsoBenchmarks, runner) {
  const workload = await loadWorkload(file);
  checkExpectedNames(workload, logText(workload.file), ENVIRONMENT_NAMES, (m) => new WorkloadError(m));
  if (runner) await checkOnRunner(workload, { docker: runner });
  // Held to the Benchmark contract here, where the job joins the registry (../workload/ is below it).
  /** @type {import('../benchmarks/benchmark.js').Benchmark} */
  const bench = workloadBenchmark(workload);
  return {
    registry: Object.freeze({ ...BENCHMARKS, [bench.name]: bench }),
    benchmarks: [bench.name, ...alsoBenchmarks],
    workload,
  };
}
