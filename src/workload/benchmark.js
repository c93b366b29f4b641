// A team's own CI job (a workload file, ./load.js) as a benchmark: each iteration is one job in the
// environment, run as its script runs it (./job.js, where the job's phases are told), and timed under the
// job's own limits. This file is what the job is as a benchmark: its name, its images, its estimates
// (./estimate.js) and its limit. The Benchmark contract it meets is the benchmarks' layer's, above this one
// (../benchmarks/benchmark.js): src/run/workload.js, where the job joins the registry, types it as one, so
// the type check holds it to that contract without this layer reaching up.
import path from 'node:path';
import { jobEstimate, GUESSED_JOB_S, primes, stepEstimate } from './estimate.js';
import { runJob } from './job.js';
import { expectedJob, jobLimits } from './time.js';

/**
 * @typedef {import('./load.js').Workload} Workload
 * @typedef {import('../environments/environment.js').Environment} Environment
 * @typedef {import('./clock.js').RawContext} RawContext
 */

/** The series' name of a workload: every metric of the job is under it. @param {string} name */
export const workloadBenchmarkName = (name) => `workload.${name}`;

/**
 * The benchmark that runs `workload` as a job in each environment.
 * @param {Workload} workload
 */
export function workloadBenchmark(workload) {
  return {
    name: workloadBenchmarkName(workload.name),
    // The registry's image: the run starts it on the runner's engine (cells' distro picks its tag).
    image: 'registry',
    extraImages: seedBenches(workload),
    usesBuilder: true,
    description: `the job in ${path.basename(workload.file)}: images, BuildKit builds, compose, steps, as a CI job runs them`,
    params: { quick: {}, standard: {} },
    // A job's length is the job's own: the file's `expected` times until the first job is measured.
    estimateSeconds: () => expectedJob(workload, 'job')?.seconds ?? GUESSED_JOB_S,
    // native has no engine: its cell is unavailable before anything runs and costs nothing.
    estimateIn: (/** @type {string} */ envName) => (envName === 'native' ? 0 : stepEstimate(workload, envName)),
    // The unmeasured first job on an engine that outlives the jobs (runJob's prime) finds no build cache of
    // the job's yet: planned as a fresh engine's job, without the build states.
    estimateFirstIn: (/** @type {string} */ envName) =>
      primes(workload, envName) ? jobEstimate({ ...workload, states: [] }, 'dind') : 0,
    // The job, its unmeasured first job on an engine that outlives it, and its build states each run under
    // the job's limit: the profile's per-step limit is for the suite's own short tests.
    timeLimitMs: 3 * jobLimits(workload).jobMs + 10 * 60_000,
    unavailableIn: { native: 'a workload drives a Docker engine; native has none' },
    measure: (/** @type {Environment} */ env, /** @type {RawContext} */ ctx) => runJob(workload, env, ctx),
  };
}

/**
 * The project's benchmark images (dind-bench/<bench>:<distro>) the job takes from the runner's engine (a
 * seed, a present image or its stand-in): built before the run. @param {Workload} w
 */
function seedBenches(w) {
  const names = (w.images ?? [])
    .flatMap((i) => [i.seed, i.source === 'present' ? (i.from ?? i.name) : undefined])
    .filter(Boolean);
  return [
    ...new Set(names.map((n) => /^dind-bench\/([a-z0-9-]+):/.exec(/** @type {string} */ (n))?.[1]).filter(Boolean)),
  ].map((x) => /** @type {string} */ (x));
}
