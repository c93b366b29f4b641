// `dind-bench compare`: read a run, compare inside it, optionally against history, write every output asked
// for. In GitHub Actions the Markdown becomes the job summary and each regression an annotation.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openHistory, seriesKey } from '../history/store.js';
import { compareWithHistory } from './against-history.js';
import { defaultConfig, loadConfig } from './config.js';
import { writeGabExport } from './gab-export.js';
import { loadResults } from './load-results.js';
import { logSafe } from '../text/escape.js';
import { markdownReport, prComment, terminalReport, verdictsDocument } from './render.js';
import { compareWithinRun } from '../results/within-run.js';
import { mdText } from '../text/escape.js';
import { markdownTable, textTable, wrap } from '../text/tables.js';
import { abAnswer, abTable, compareEnvironments } from './ab.js';

/** A regression was found and --fail-on-regression was given (run uses 3 for failed cells, 1 for usage). */
export const EXIT_REGRESSION = 4;

/**
 * @typedef {{
 *   results: string, history?: string, config?: string, markdown?: string, json?: string, prComment?: string,
 *   exportGab?: string, failOnRegression?: boolean, githubActions?: boolean,
 *   openHistory?: (dir: string) => Promise<{ history: import('./against-history.js').HistoryReader, seriesKey: import('./against-history.js').SeriesKeyFn }>,
 *   print?: (text: string) => void,
 * }} CompareOptions
 */

/**
 * @param {CompareOptions} opts
 * @returns {Promise<{ exitCode: number, outcome: import('./render.js').CompareOutcome }>}
 */
export async function compareCommand(opts) {
  // The terminal report quotes data; in an Actions log no line of it may start a workflow command.
  const print = opts.print ?? ((/** @type {string} */ t) => process.stdout.write(logSafe(t)));
  const results = await loadResults(opts.results);
  const config = opts.config ? await loadConfig(opts.config) : defaultConfig();
  const comparisons = compareWithinRun(results);
  let verdicts = null;
  if (opts.history) {
    const open = opts.openHistory ?? openStore;
    const { history, seriesKey } = await open(opts.history);
    verdicts = await compareWithHistory(results, history, { seriesKey, config });
  }
  const outcome = { results, comparisons, verdicts };
  const markdown = markdownReport(outcome);
  await writeIf(opts.markdown, markdown);
  await writeIf(opts.prComment, prComment(outcome));
  await writeIf(opts.json, JSON.stringify(verdictsDocument(outcome), null, 2) + '\n');
  if (opts.exportGab) await writeGabExport(results, opts.exportGab);

  const regressions = (verdicts ?? []).filter((v) => v.status === 'regression');
  if (opts.githubActions ?? process.env.GITHUB_ACTIONS === 'true') {
    // Loaded only in GitHub Actions: elsewhere the command starts faster without it.
    const core = await import('@actions/core');
    await core.summary.addRaw(markdown).write();
    for (const v of regressions) {
      const annotate = opts.failOnRegression ? core.error : core.warning;
      annotate(v.reason, {
        title: `dind-bench regression: ${v.benchmark} ${v.metric} on ${v.environmentKey}/${v.distro}`,
      });
    }
    print(`dind-bench compare: job summary written; ${regressions.length} regression(s)\n`);
  } else {
    print(terminalReport(outcome));
  }
  return { exitCode: opts.failOnRegression && regressions.length > 0 ? EXIT_REGRESSION : 0, outcome };
}

/**
 * `compare RESULTS --baseline KEY --candidate KEY`: the A/B of two environments of one run (./ab.js), the
 * answer first, then a row per metric; with `failOnRegression`, exit EXIT_REGRESSION when the candidate
 * is significantly worse in any metric.
 * @param {{ results: string, baseline: string, candidate: string, markdown?: string, json?: string,
 *   failOnRegression?: boolean, githubActions?: boolean, print?: (text: string) => void }} opts
 * @returns {Promise<{ exitCode: number, rows: import('./ab.js').AbRow[] }>}
 */
export async function abCommand(opts) {
  const print = opts.print ?? ((/** @type {string} */ t) => process.stdout.write(logSafe(t)));
  const results = await loadResults(opts.results);
  const rows = compareEnvironments(results, opts.baseline, opts.candidate);
  const answer = abAnswer(rows, opts.baseline, opts.candidate);
  const table = abTable(rows);
  const markdown = `${mdText(answer)}\n\n${markdownTable(table.header, table.rows)}\n`;
  await writeIf(opts.markdown, markdown);
  await writeIf(
    opts.json,
    JSON.stringify({ baseline: opts.baseline, candidate: opts.candidate, answer, rows }, null, 2) + '\n',
  );
  const regressions = rows.filter((r) => r.verdict === 'regression');
  if (opts.githubActions ?? process.env.GITHUB_ACTIONS === 'true') {
    const core = await import('@actions/core');
    await core.summary.addRaw(markdown).write();
  }
  print(`${wrap(answer)}\n\n${textTable(table.header, table.rows)}\n`);
  return { exitCode: opts.failOnRegression && regressions.length > 0 ? EXIT_REGRESSION : 0, rows };
}

/** @param {string | undefined} file @param {string} text */
async function writeIf(file, text) {
  if (!file) return;
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, text);
}

/**
 * The history store (src/history/store.js) and its series key, so verdicts read the same series `publish` wrote.
 * @param {string} dir
 */
async function openStore(dir) {
  return { history: await openHistory(dir), seriesKey };
}
