// A step killed from outside while every engine answered costs that iteration, never the cell. Exit 137
// is SIGKILL (128 + 9): what the kernel's OOM killer sends to the process it picks, and what a host's
// `kill -9` or `docker kill` sends. It is a fault of the moment, not the benchmark's answer, so the
// iteration runs once more, said in the log and in the cell's `killed` record. Killed again, the
// iteration is recorded there as failed (it has no samples) and the cell goes on with its other
// iterations. A retry that fails for another reason is the benchmark's own failure, as any other.
import { reopen } from './cells.js';

/** SIGKILL's exit status: 128 + 9. */
export const KILLED_EXIT = 137;

/**
 * @typedef {import('./cells.js').CellResult} CellResult
 * @typedef {NonNullable<CellResult['killed']>[number]} KilledStep
 */

/** A step's name in the log and the records: `warm-up`, or `#N` (1-based). @param {{warmup: boolean, iteration: number}} step */
export const stepLabel = (step) => (step.warmup ? 'warm-up' : `#${step.iteration + 1}`);

/**
 * Whether a step's error says its command was killed by SIGKILL: the error's exit status (a benchmark's
 * runStep/runSteps), else its first line's "exited 137" (the docker CLI of a workload's step).
 * @param {unknown} e
 */
export function killedBy(e) {
  const err = /** @type {{exitCode?: unknown, message?: unknown} | null | undefined} */ (e);
  if (err?.exitCode === KILLED_EXIT) return true;
  return new RegExp(`\\bexited ${KILLED_EXIT}\\b`).test(String(err?.message ?? '').split('\n')[0]);
}

/**
 * Keeps the tries of a step: after a kill, whether it gets its one more run; then what became of it.
 * @param {CellResult} cell @param {{warmup: boolean, iteration: number}} step
 * @param {(msg: string) => void} log @param {string} progress the log line's prefix
 */
export function killWatch(cell, step, log, progress) {
  const label = stepLabel(step);
  /** @type {string | null} the first kill's reason, once the step was killed */
  let first = null;
  /** @param {KilledStep['outcome']} outcome */
  const note = (outcome) => {
    (cell.killed ??= []).push({ iteration: label, reason: /** @type {string} */ (first), outcome });
  };
  return {
    /**
     * The step failed while every engine answered: `retry` (its first kill: the cell is open again),
     * `failed` (not a kill: the cell's failure stands) or `iteration lost` (a second kill: recorded as the
     * iteration's failure, the cell open again for its other iterations).
     * @param {unknown} e the step's error
     * @returns {'retry' | 'failed' | 'iteration lost'}
     */
    failed(e) {
      const killed = killedBy(e);
      if (first === null) {
        if (!killed) return 'failed';
        first = cell.reason ?? `${cell.benchmark} in ${cell.environmentKey}, ${label}: exit ${KILLED_EXIT}`;
        reopen(cell);
        log(
          `${progress} ${label}: killed (exit ${KILLED_EXIT}: SIGKILL, as the OOM killer sends); running it once more`,
        );
        return 'retry';
      }
      if (!killed) {
        note('failed');
        return 'failed';
      }
      note('killed again');
      reopen(cell);
      log(
        `${progress} ${label}: killed again (exit ${KILLED_EXIT}); recorded as this iteration's failure, the cell's other iterations go on`,
      );
      return 'iteration lost';
    },
    /** The step's metrics were recorded: after a kill, its retry measured it. */
    measured() {
      if (first !== null) note('measured');
    },
  };
}
