// A run's Reading and its outputs, for tests: each output is built as the commands build it, from one
// Reading (src/reading/read-run.js), so a test reads what a user reads.
import { readRun } from '../../src/reading/read-run.js';
import { markdownReport } from '../../src/results/report.js';
import { htmlReport } from '../../src/results/report-html.js';

export { readRun };

/**
 * report.md of a run. @param {any} results @param {import('../../src/reading/read-run.js').ReadRunOptions} [opts]
 */
export const runMarkdown = (results, opts) => markdownReport(readRun(results, opts), results);

/**
 * report.html of a run. @param {any} results @param {import('../../src/reading/read-run.js').ReadRunOptions} [opts]
 */
export const runHtml = (results, opts) => htmlReport(readRun(results, opts), results);

/**
 * What `compare` lays out: the results, their Reading and the history verdicts (null without a history).
 * @param {any} results @param {import('../../src/reading/read-run.js').ReadRunOptions} [opts] @param {any[] | null} [verdicts]
 */
export const compareOutcome = (results, opts = {}, verdicts = null) => ({
  results,
  reading: readRun(results, { ...opts, history: verdicts ? { verdicts } : null }),
  verdicts,
});

/** The answer table's row of a question: its cells by header. @param {any} reading @param {(q: any) => boolean} which */
export function answerRow(reading, which) {
  const i = reading.questions.findIndex(which);
  if (i < 0) return null;
  return Object.fromEntries(reading.table.header.map((h, k) => [h, reading.table.rows[i][k]]));
}
