// `dind-bench compare`: read a run, compare inside it, optionally against history, build its one Reading
// (src/reading/read-run.js) and write every output asked for, each a layout of it. In GitHub Actions the
// Markdown becomes the job summary and each regression an annotation.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openHistory, seriesKey } from '../history/store.js';
import { compareWithHistory } from './against-history.js';
import { checkPatterns, defaultConfig, loadConfig, thresholdOf } from './config.js';
import { writeGabExport } from './gab-export.js';
import { loadResults } from './load-results.js';
import { logSafe, mdText } from '../text/escape.js';
import { markdownReport, prComment, terminalReport, verdictsDocument } from './render.js';
import { markdownTable, textTable, wrap } from '../text/tables.js';
import { answerMarkdown, answerTerminal, partsMarkdown, partsTerminal } from '../text/answer.js';
import { abTable, checkPair } from './ab.js';
import { EXIT_INCONCLUSIVE, EXIT_REGRESSION, exitCodeOf } from '../reading/gate.js';
import { readRun } from '../reading/read-run.js';
import { FALSE_ALARM_RATE } from '../reading/decide.js';
import { modesTerminal } from '../text/modes.js';

export { EXIT_INCONCLUSIVE, EXIT_REGRESSION };

/**
 * @typedef {{
 *   results: string, history?: string, config?: string, markdown?: string, json?: string, prComment?: string,
 *   exportGab?: string, failOnRegression?: boolean, failOn?: 'regression' | 'inconclusive', gate?: string,
 *   pricePerMinute?: number, billing?: import('../model/job-cost.js').Billing, githubActions?: boolean,
 *   policy?: string, modes?: boolean,
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
  const config = await configFor(opts.config, results);
  let verdicts = null;
  if (opts.history) {
    const open = opts.openHistory ?? openStore;
    const { history, seriesKey } = await open(opts.history);
    verdicts = await compareWithHistory(results, history, { seriesKey, config });
  }
  // The one Reading every output lays out; a policy given here wins over the one the run recorded.
  const reading = readRun(results, {
    price: opts.pricePerMinute,
    billing: opts.billing,
    thresholdOf: thresholdOf(config),
    gate: opts.gate,
    failOn: failOnOf(opts),
    history: verdicts ? { verdicts } : null,
    policy: opts.policy ?? null,
  });
  const outcome = { results, reading, verdicts };
  if (opts.modes) {
    // Only the mode table and its answer (the quick start ends with it).
    // Silent without one (a run with neither isolation cells nor a policy), so a script can always ask.
    const text = modesTerminal(reading.modes).join('\n\n');
    if (text) print(`\n${text}\n`);
    // The exit is still the gate's (0 without --fail-on): --modes chooses what is printed, not what passes.
    return { exitCode: exitCodeOf(reading, 'compare'), outcome };
  }
  const markdown = markdownReport(outcome);
  await writeIf(opts.markdown, markdown);
  await writeIf(opts.prComment, prComment(outcome));
  await writeIf(opts.json, JSON.stringify(verdictsDocument(outcome), null, 2) + '\n');
  if (opts.exportGab) await writeGabExport(results, opts.exportGab);

  const regressions = (verdicts ?? []).filter((v) => v.status === 'regression');
  const failOn = failOnOf(opts);
  if (opts.githubActions ?? process.env.GITHUB_ACTIONS === 'true') {
    // Loaded only in GitHub Actions: elsewhere the command starts faster without it.
    const core = await import('@actions/core');
    await core.summary.addRaw(markdown).write();
    for (const v of regressions) {
      const annotate = failOn ? core.error : core.warning;
      annotate(v.reason, {
        title: `dind-bench regression: ${v.benchmark} ${v.metric} on ${v.environmentKey}/${v.distro}`,
      });
    }
    print(`dind-bench compare: job summary written. ${reading.gate.sentence}\n`);
  } else {
    print(terminalReport(outcome));
  }
  return { exitCode: exitCodeOf(reading, 'compare'), outcome };
}

/** @param {{ failOn?: string, failOnRegression?: boolean }} opts @returns {'regression' | 'inconclusive' | null} */
const failOnOf = (opts) =>
  opts.failOn === 'inconclusive'
    ? 'inconclusive'
    : opts.failOn === 'regression' || opts.failOnRegression
      ? 'regression'
      : null;

/**
 * The config of every mode, checked against the run: a missing or bad file, or a pattern that matches no
 * metric of the run, is an error naming the file and key.
 * @param {string | undefined} file @param {import('#model/results.js').Results} results
 */
async function configFor(file, results) {
  if (!file) return defaultConfig();
  const config = await loadConfig(file);
  checkPatterns(
    config,
    results.cells.flatMap((c) => c.metrics.map((m) => ({ benchmark: c.benchmark, metric: m.metric }))),
  );
  return config;
}

/**
 * `compare RESULTS --baseline KEY --candidate KEY`: the A/B of two environments of one run (./ab.js), the
 * answer first, then a row per metric, then the gate over the metrics it gates (`--gate`, default all).
 * @param {{ results: string, baseline: string, candidate: string, markdown?: string, json?: string, config?: string,
 *   failOnRegression?: boolean, failOn?: 'regression' | 'inconclusive', gate?: string, pricePerMinute?: number,
 *   billing?: import('../model/job-cost.js').Billing, githubActions?: boolean, print?: (text: string) => void }} opts
 * @returns {Promise<{ exitCode: number, rows: import('./ab.js').AbRow[], gate: import('../reading/gate.js').Gate }>}
 */
export async function abCommand(opts) {
  const print = opts.print ?? ((/** @type {string} */ t) => process.stdout.write(logSafe(t)));
  const results = await loadResults(opts.results);
  const config = await configFor(opts.config, results);
  checkPair(results, opts.baseline, opts.candidate);
  const reading = readRun(results, {
    price: opts.pricePerMinute,
    billing: opts.billing,
    thresholdOf: thresholdOf(config),
    gate: opts.gate,
    failOn: failOnOf(opts),
    pair: { baseline: opts.baseline, candidate: opts.candidate },
  });
  const rows = reading.comparisons;
  const gate = reading.gate;
  const table = abTable(rows);
  const markdown = [
    `**Cost per job:** ${mdText(reading.cost.sentence)}`,
    '',
    ...answerMarkdown(reading),
    ...partsMarkdown(reading),
    '',
    `**Gate:** ${mdText(gate.sentence)}`,
    '',
    markdownTable(table.header, table.rows),
    '',
  ].join('\n');
  await writeIf(opts.markdown, markdown);
  await writeIf(
    opts.json,
    JSON.stringify(
      {
        baseline: opts.baseline,
        candidate: opts.candidate,
        intro: reading.intro,
        table: reading.table,
        questions: reading.questions,
        caveats: reading.caveats,
        cost: reading.cost,
        parts: reading.parts,
        gate,
        falseAlarmRate: FALSE_ALARM_RATE,
        rows,
      },
      null,
      2,
    ) + '\n',
  );
  if (opts.githubActions ?? process.env.GITHUB_ACTIONS === 'true') {
    const core = await import('@actions/core');
    await core.summary.addRaw(markdown).write();
  }
  // The cost line only where the pair has a time a job pays (a start-up, a job): else the table says it all.
  const costLine = reading.cost.seconds ? `${wrap(reading.cost.sentence)}\n\n` : '';
  print(
    `${costLine}${[...answerTerminal(reading), ...partsTerminal(reading)].join('\n')}\n\n${wrap(`Gate: ${gate.sentence}`)}\n\n${textTable(table.header, table.rows)}\n`,
  );
  return { exitCode: exitCodeOf(reading, 'compare'), rows, gate };
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
