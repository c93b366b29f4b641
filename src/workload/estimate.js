// How long a workload's job is planned to take in an environment, before any is measured: the file's
// `expected` times (./time.js), else a guess, plus the build states it measures and a fresh engine's stop.
// Used by the benchmark's estimates (./benchmark.js) and the run's plan (../run/workload-plan.js).
import { onRunnerEngine } from '../model/environments.js';
import { expectedBuildState, expectedJob, statesOf } from './time.js';

/** @typedef {import('./load.js').Workload} Workload */

/** A job's seconds when the file gives no `expected` time: a guess, said by plan. */
export const GUESSED_JOB_S = 30;

/**
 * Seconds one iteration takes in `envName`, planned: the job (its `expected` time in that environment, an
 * alternative DinD planned as dind, else `expected.job`, else a guess), plus each build state it measures
 * (`expected.build` each, else a tenth of the job each).
 * @param {Workload} w @param {string} envName
 */
export function jobEstimate(w, envName) {
  const kind = onRunnerEngine(envName) || envName === 'dind-vfs' ? envName : 'dind';
  const jobS = expectedJob(w, envName, kind)?.seconds ?? GUESSED_JOB_S;
  const states = statesOf(w).filter((x) => x !== 'cache-import' || !onRunnerEngine(envName));
  const stateS = expectedBuildState(w) ?? jobS / 10;
  return jobS + states.length * (w.builds?.length ?? 0) * stateS;
}

/**
 * Seconds one step (iteration) takes in `envName`, planned: the job and its states, and a fresh engine's stop
 * after it. @param {Workload} w @param {string} envName
 */
export function stepEstimate(w, envName) {
  const fresh = !onRunnerEngine(envName) && !w.runner?.persist;
  return jobEstimate(w, envName) + (fresh ? FRESH_ENGINE_STOP_S : 0);
}

/**
 * Seconds a fresh engine takes to stop and go after each job, outside the job's total (engine.stop_ms):
 * measured 8.3 s median (3 jobs of the go-service example with a 20-second build, dind@20.10, 2026-11-28) on
 * a 2-core machine at load average 20 from other work; a quiet machine's figure must be measured.
 */
export const FRESH_ENGINE_STOP_S = 8;

/**
 * Whether a run primes `envName` with an unmeasured first job (runJob): an engine that outlives the jobs
 * (the runner's, for docker and dood; every engine with runner.persist), and a mirror warmed by one (dind-mirror).
 * native runs no job.
 * @param {Workload} w @param {string} envName
 */
export const primes = (w, envName) =>
  envName !== 'native' && (onRunnerEngine(envName) || envName === 'dind-mirror' || Boolean(w.runner?.persist));
