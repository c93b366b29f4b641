// A workload's own time: the limits its CI job runs under (`timeout`), the build states measured beside it
// (`states`), and how long one job is expected to take before it has been measured (`expected`, what
// `dind-bench plan --workload` sizes the run from). A real job's cold build takes minutes: the benchmark
// profile's per-step limit (two minutes in quick) is a limit for the suite's own short tests, not for a
// team's job, so a workload's commands run under the file's limits, with defaults a real CI job fits.
import { parseDuration } from '../text/durations.js';
import { logText } from '../text/escape.js';

/** Each docker command and step of the job, unless the file says: a long cold build fits. */
export const DEFAULT_STEP_TIMEOUT_MS = 20 * 60_000;
/** The whole job, unless the file says. */
export const DEFAULT_JOB_TIMEOUT_MS = 60 * 60_000;
/** GitHub Actions ends a job after 6 h: a workload job longer than that is no CI job. */
export const MAX_JOB_TIMEOUT_MS = 6 * 3_600_000;
/** A limit shorter than a second is a typo (no docker command returns in less). */
export const MIN_TIMEOUT_MS = 1_000;

/** The build states a workload may ask for, in the order they run. */
export const BUILD_STATES = /** @type {const} */ (['cold', 'warm', 'cache-import']);
/** @typedef {typeof BUILD_STATES[number]} BuildState */

/**
 * Default: none. The job's own build already answers question 1 once per job (in DinD it is cold, on the
 * runner's engine it finds the runner's cache); each state is one more build per job.
 * @type {BuildState[]}
 */
export const DEFAULT_STATES = [];

/**
 * @typedef {{ job?: string, step?: string }} WorkloadTimeout
 * @typedef {{ jobMs: number, stepMs: number }} JobLimits
 */

/**
 * Checks every duration of the file (bounds, a step's limit within the job's, an expected job within its
 * limit), naming the field. `fail` makes the error (load.js's WorkloadError).
 * @param {import('./load.js').WorkloadDoc} w @param {string} where @param {(message: string) => Error} fail
 */
export function checkTimes(w, where, fail) {
  const ms = (/** @type {string} */ field, /** @type {string} */ text) => {
    const value = parseDuration(text);
    if (!(value >= MIN_TIMEOUT_MS && value <= MAX_JOB_TIMEOUT_MS))
      throw fail(
        `${where}: field ${field}: ${logText(text)} is outside 1s to 6h; give a time such as 90s, 3m or 1h30m (a GitHub Actions job ends after 6h)`,
      );
    return value;
  };
  const jobMs = w.timeout?.job ? ms('/timeout/job', w.timeout.job) : DEFAULT_JOB_TIMEOUT_MS;
  const stepMs = w.timeout?.step ? ms('/timeout/step', w.timeout.step) : Math.min(DEFAULT_STEP_TIMEOUT_MS, jobMs);
  if (stepMs > jobMs)
    throw fail(
      `${where}: field /timeout/step: ${logText(String(w.timeout?.step))} is longer than the job's limit (${shown(jobMs)}, /timeout/job); a step cannot outlast its job`,
    );
  const each = [
    ...(w.builds ?? []).map((b, i) => /** @type {const} */ ([`/builds/${i}/timeout`, b.timeout])),
    ...(w.steps ?? []).map((s, i) => /** @type {const} */ ([`/steps/${i}/timeout`, s.timeout])),
  ];
  for (const [field, text] of each) {
    if (text === undefined) continue;
    if (ms(field, text) > jobMs)
      throw fail(
        `${where}: field ${field}: ${logText(text)} is longer than the job's limit (${shown(jobMs)}, /timeout/job); raise /timeout/job or shorten this one`,
      );
  }
  for (const [key, text] of Object.entries(w.expected ?? {})) {
    const value = parseDuration(text);
    const field = `/expected/${logText(key)}`;
    if (!(value > 0 && value <= MAX_JOB_TIMEOUT_MS))
      throw fail(
        `${where}: field ${field}: ${logText(text)} is outside 1s to 6h; give the time one job takes, such as 2m30s`,
      );
    if (key !== 'build' && value > jobMs)
      throw fail(
        `${where}: field ${field}: a job expected to take ${logText(text)} cannot fit its own limit of ${shown(jobMs)} (/timeout/job); raise /timeout/job or correct the expected time`,
      );
  }
}

/**
 * The expected keys that are neither `job`, `build` nor an environment's name: refused, naming the field
 * and the names it takes (the environments' names come from the caller: this layer does not know them).
 * @param {import('./load.js').WorkloadDoc} w @param {string} where @param {string[]} environments
 * @param {(message: string) => Error} fail
 */
export function checkExpectedNames(w, where, environments, fail) {
  for (const key of Object.keys(w.expected ?? {}))
    if (key !== 'job' && key !== 'build' && !environments.includes(key))
      throw fail(
        `${where}: field /expected/${logText(key)}: not a name expected takes; give job, build or an environment's name (${environments.join(', ')})`,
      );
}

/** The job's limits, defaults filled. @param {import('./load.js').WorkloadDoc} w @returns {JobLimits} */
export function jobLimits(w) {
  const jobMs = w.timeout?.job ? parseDuration(w.timeout.job) : DEFAULT_JOB_TIMEOUT_MS;
  const stepMs = w.timeout?.step ? parseDuration(w.timeout.step) : Math.min(DEFAULT_STEP_TIMEOUT_MS, jobMs);
  return { jobMs, stepMs };
}

/** A step's or build's own limit, else the job's step limit. @param {{ timeout?: string }} item @param {JobLimits} limits */
export const limitOf = (item, limits) => (item.timeout ? parseDuration(item.timeout) : limits.stepMs);

/** The states measured after each job. @param {import('./load.js').WorkloadDoc} w @returns {BuildState[]} */
export const statesOf = (w) => /** @type {BuildState[]} */ (w.states ?? DEFAULT_STATES);

/**
 * How long one job takes in `envName` before it has been measured: the environment's own `expected`, else
 * `job`; null when the file gives neither. `kindOf` maps an environment to the one it is planned as
 * (an alternative DinD to dind).
 * @param {import('./load.js').WorkloadDoc} w @param {string} envName @param {string} [kind]
 * @returns {{ seconds: number, from: string } | null}
 */
export function expectedJob(w, envName, kind) {
  for (const key of [envName, kind, 'job']) {
    const text = key ? w.expected?.[key] : undefined;
    if (text !== undefined) return { seconds: parseDuration(text) / 1000, from: `expected.${key}` };
  }
  return null;
}

/** Seconds one build state takes, planned: `expected.build`, else null. @param {import('./load.js').WorkloadDoc} w */
export const expectedBuildState = (w) => (w.expected?.build ? parseDuration(w.expected.build) / 1000 : null);

/** 20m, 1h30m. @param {number} ms */
function shown(ms) {
  const m = Math.round(ms / 60_000);
  if (ms % 60_000) return `${Math.round(ms / 1000)}s`;
  return m % 60 ? (m > 60 ? `${Math.floor(m / 60)}h${m % 60}m` : `${m}m`) : `${m / 60}h`;
}
