// A job's clock: the limit each of its commands runs under (its own `timeout` or the step limit, never past
// the job's own limit, counted from the job's start), and its timings as metrics.
import { jobLimits, limitOf } from './time.js';

/** @typedef {import('./load.js').Workload} Workload */
/** @typedef {import('../parsers/parse-error.js').Metric} Metric */

/**
 * What a job takes of the benchmark's measure context (../benchmarks/benchmark.js MeasureContext): the
 * benchmark's image (whose distro the run's registry image follows) and where raw output goes.
 * @typedef {{ image: string, saveRaw: (name: string, text: string) => Promise<void> }} RawContext
 */
/**
 * The limits one job's commands run under: each its own `timeout` (or the job's step limit), never past
 * the job's own limit, counted from the job's start. A command that reaches its limit is ended (its whole
 * process group) and fails the job, naming the limit and the field that sets it.
 * @typedef {{ limit: (item?: { timeout?: string }) => { ms: number, what: string } }} JobClock
 */
/** @typedef {RawContext & { clock: JobClock }} JobContext */

/** A job's clock, started now. @param {Workload} w @returns {JobClock} */
export function jobClock(w) {
  const limits = jobLimits(w);
  const end = performance.now() + limits.jobMs;
  return {
    limit(item = {}) {
      const own = limitOf(item, limits);
      const left = end - performance.now();
      if (left <= 0)
        throw new Error(
          `the job reached its limit of ${shownMs(limits.jobMs)} (timeout.job) before this step; raise timeout.job in the workload file`,
        );
      if (left < own) return { ms: left, what: `the job's limit of ${shownMs(limits.jobMs)} (timeout.job)` };
      return {
        ms: own,
        what: item.timeout
          ? `its limit of ${item.timeout} (timeout)`
          : `the step limit of ${shownMs(own)} (timeout.step)`,
      };
    },
  };
}

/** 20m, 90s. @param {number} ms */
const shownMs = (ms) => (ms % 60_000 ? `${Math.round(ms / 1000)}s` : `${ms / 60_000}m`);

/** A timing of the job as a metric, to a tenth of a millisecond. @param {string} metric @param {number} value @returns {Metric} */
export const ms = (metric, value) => ({ metric, unit: 'ms', better: 'lower', value: Math.round(value * 10) / 10 });
