// `run --workload FILE`: the team's own job joins the run as one more benchmark (../workload/benchmark.js),
// looked up in a registry of its own: every benchmark, plus the job. The file is read and checked in full
// before anything starts (../workload/load.js), then what the runner's engine must hold for it
// (../workload/preflight.js); a resumed run reads the file again from the path it recorded.
import { BENCHMARKS } from '../benchmarks/index.js';
import { findPlugin } from '../engine/cli.js';
import { ENVIRONMENT_NAMES } from '../environments/names.js';
import { logText } from '../text/escape.js';
import { workloadBenchmark } from '../workload/benchmark.js';
import { WorkloadError, loadWorkload } from '../workload/load.js';
import { imageNotes } from '../workload/image-notes.js';
import { checkOnRunner } from '../workload/preflight.js';
import { checkExpectedNames } from '../workload/time.js';

/**
 * @param {string} file the workload file
 * @param {string[]} alsoBenchmarks benchmarks asked for beside it (--bench)
 * @param {{ docker: import('dockerode'), log: (line: string) => void }} [runner] the runner's engine: what
 *   the job takes from it is checked there, and what its images leave to it said through `log` before anything
 *   runs (none for `plan --workload`, which checks everything that needs no engine and says the notes itself)
 * @returns {Promise<{ registry: import('./params.js').BenchmarkRegistry, benchmarks: string[],
 *   workload: import('../workload/load.js').Workload, notes: string[] }>}
 *   notes: what the workload's images leave to the runner (../workload/image-notes.js): with `runner`, what its
 *   engine holds; without, what only the runner can check
 */
export async function withWorkload(file, alsoBenchmarks, runner) {
  const workload = await loadWorkload(file);
  checkExpectedNames(workload, logText(workload.file), ENVIRONMENT_NAMES, (m) => new WorkloadError(m));
  if (runner) await checkOnRunner(workload, { docker: runner.docker });
  const has = runner ? (/** @type {string} */ name) => holds(runner.docker, name) : undefined;
  // Held to the Benchmark contract here, where the job joins the registry (../workload/ is below it).
  /** @type {import('../benchmarks/benchmark.js').Benchmark} */
  const bench = workloadBenchmark(workload);
  const notes = [...composeModelNote(workload), ...(await imageNotes(workload, { has }))];
  for (const note of notes) runner?.log(`workload: ${note}`);
  return {
    registry: Object.freeze({ ...BENCHMARKS, [bench.name]: bench }),
    benchmarks: [bench.name, ...alsoBenchmarks],
    workload,
    notes,
  };
}

/**
 * A compose file is checked as compose itself reads it (merge keys, variables, include and extends: the host
 * paths it would mount) only where the compose plugin is: said where it is not, and the run's start refuses
 * without it (../workload/preflight.js). @param {import('../workload/load.js').Workload} w
 */
const composeModelNote = (w) =>
  w.compose && !findPlugin('docker-compose')
    ? [
        `the compose file ${logText(w.compose.file)} as compose itself reads it (variables, include, extends: the host paths it mounts): the docker compose plugin is not installed here, so only the runner can check it`,
      ]
    : [];

/** Whether the runner's engine holds an image (an engine that does not answer: no). @param {import('dockerode')} docker @param {string} name */
const holds = (docker, name) =>
  docker
    .getImage(name)
    .inspect()
    .then(
      () => true,
      () => false,
    );
