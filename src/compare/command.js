// `dind-bench compare`: read a run, compare inside it, optionally against history, write every output asked
// for. In GitHub Actions the Markdown becomes the job summary and each regression an annotation.
import { modesOf, modesTerminal } from '../results/report.js';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openHistory, seriesKey } from '../history/store.js';
import { compareWithHistory } from './against-history.js';
import { checkPatterns, defaultConfig, loadConfig, thresholdOf } from './config.js';
import { writeGabExport } from './gab-export.js';
import { loadResults } from './load-results.js';
import { logSafe } from '../text/escape.js';
import { costFirst, markdownReport, prComment, terminalReport, verdictsDocument } from './render.js';
import { pricingOf } from '../results/job-cost.js';
import { compareWithinRun } from '../results/within-run.js';
import { mdText } from '../text/escape.js';
import { markdownTable, textTable, wrap } from '../text/tables.js';
import { abTable, compareEnvironments } from './ab.js';
import { EXIT_INCONCLUSIVE, EXIT_REGRESSION, gateFor, gateOf, patternToRegExp } from '../reading/gate.js';
import { isDecisionMetric } from '../model/decisions.js';
import { metricsOf } from '../reading/index.js';
import { outcomeOfStatus } from '../reading/history.js';
import { answerFor, costAnswer, startupPhases } from '../reading/answer.js';
import { FALSE_ALARM_RATE } from '../reading/decide.js';

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
  const { gated, named } = gateOfRun(opts.gate, results);
  const comparisons = compareWithinRun(results, { thresholdOf: thresholdOf(config), gated: named });
  let verdicts = null;
  if (opts.history) {
    const open = opts.openHistory ?? openStore;
    const { history, seriesKey } = await open(opts.history);
    verdicts = await compareWithHistory(results, history, { seriesKey, config });
  }
  const gate = gateOf(
    (verdicts ?? [])
      .filter((v) => gated(v.benchmark, v.metric))
      .map((v) => ({
        benchmark: v.benchmark,
        metric: v.metric,
        where: `${v.environmentKey}/${v.distro}`,
        outcome: outcomeOfStatus(v.status),
        change: v.change,
        sees: v.detectable.change,
      })),
    failOnOf(opts),
    verdicts ? null : 'no history was given (--history) to judge this run against',
  );
  // The mode table reads the same comparisons; a policy given here wins over the one the run recorded.
  const modes = modesOf(results, {
    policy: opts.policy ?? null,
    comparisons,
    price: opts.pricePerMinute,
    billing: opts.billing,
  });
  const outcome = { results, comparisons, verdicts, gate, price: opts.pricePerMinute, billing: opts.billing, modes };
  if (opts.modes) {
    // Only the mode table and its answer (the quick start ends with it).
    // Silent without one (a run with neither isolation cells nor a policy), so a script can always ask.
    const text = modesTerminal(modes).join('\n\n');
    if (text) print(`\n${text}\n`);
    return { exitCode: 0, outcome };
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
    print(`dind-bench compare: job summary written. ${gate.sentence}\n`);
  } else {
    print(terminalReport(outcome));
  }
  return { exitCode: gate.exitCode, outcome };
}

/** @param {{ failOn?: string, failOnRegression?: boolean }} opts @returns {'regression' | 'inconclusive' | null} */
const failOnOf = (opts) =>
  opts.failOn === 'inconclusive'
    ? 'inconclusive'
    : opts.failOn === 'regression' || opts.failOnRegression
      ? 'regression'
      : null;

/** "lifecycle/*,workload/*" as patterns; none: every metric. @param {string | undefined} list */
const gatePatterns = (list) =>
  (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * What the gate judges: the metrics `--gate` names (each pattern must match a metric the run measured: a
 * gate on what was not measured would pass on nothing, so it is refused, naming the run's decision metrics);
 * without --gate, what a job pays where measured (DEFAULT_GATE), else the run's decisions. `named`: the
 * metrics --gate made decisions of, for the reading (undefined without --gate).
 * @param {string | undefined} list @param {import('#model/results.js').Results} results
 */
function gateOfRun(list, results) {
  const patterns = gatePatterns(list);
  const metrics = metricsOf(results);
  for (const p of patterns) {
    const re = patternToRegExp(p);
    if (!metrics.some((m) => re.test(`${m.benchmark}/${m.metric}`))) {
      const decisions = [
        ...new Set(
          metrics.filter((m) => isDecisionMetric(m.benchmark, m.metric)).map((m) => `${m.benchmark}/${m.metric}`),
        ),
      ];
      throw new Error(
        `--gate ${JSON.stringify(p)}: no metric of this run matches it, so the gate would judge nothing; the run's decision metrics: ${decisions.join(', ') || 'none'} (benchmark/metric, * for any part)`,
      );
    }
  }
  const gate = gateFor(patterns, metrics);
  const gated = gate.patterns.length ? gate.gated : isDecisionMetric;
  return { gated, named: patterns.length ? gate.gated : undefined };
}

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
  const { gated, named } = gateOfRun(opts.gate, results);
  const rows = compareEnvironments(results, opts.baseline, opts.candidate, {
    thresholdOf: thresholdOf(config),
    gated: named,
  });
  const gate = gateOf(
    rows
      .filter((r) => gated(r.benchmark, r.metric))
      .map((r) => ({
        benchmark: r.benchmark,
        metric: r.metric,
        where: `${r.candidate.env}/${r.candidate.distro}`,
        // No number to read (a median of 0) is not a pass: the gate counts it as not judged.
        outcome: r.outcome ?? /** @type {const} */ ('inconclusive'),
        change: r.worse,
        sees: r.detectable.change,
        samplesToDecide: r.samplesToDecide,
      })),
    failOnOf(opts),
  );
  const phases = startupPhases(results, opts.candidate);
  // One pricing for every sentence: compare's options over the run's own (run.args), else the defaults.
  const pricing = { ...pricingOf(results, { price: opts.pricePerMinute, billing: opts.billing }), phases };
  const answer = rows.length
    ? answerFor(rows, pricing)
    : `${opts.candidate} against ${opts.baseline}: no metric measured in both in this run.`;
  const cost = costAnswer(rows, pricing);
  const control = `Wrong decisions are held at ${FALSE_ALARM_RATE * 100}% over the run's ${rows.filter((r) => r.decision).length} decisions and the looks of its sampling (each interval at ${levelText(rows)}).`;
  const table = abTable(rows);
  const markdown = `${costFirst(cost.sentence, answer).join('\n')}\n\n**Gate:** ${mdText(gate.sentence)} ${mdText(control)}\n\n${markdownTable(table.header, table.rows)}\n`;
  await writeIf(opts.markdown, markdown);
  await writeIf(
    opts.json,
    JSON.stringify(
      {
        baseline: opts.baseline,
        candidate: opts.candidate,
        answer,
        cost,
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
  const costLine = answer.startsWith(cost.sentence) ? '' : `${wrap(cost.sentence)}\n\n`;
  print(
    `${costLine}${wrap(answer)}\n\n${wrap(`Gate: ${gate.sentence} ${control}`)}\n\n${textTable(table.header, table.rows)}\n`,
  );
  return { exitCode: gate.exitCode, rows, gate };
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

/** "99.75%": the level of the decisions' intervals (one level for the whole reading). @param {Array<{ decision: boolean, level: number }>} rows */
const levelText = (rows) => {
  const level = rows.find((r) => r.decision)?.level;
  return level ? `${Number((level * 100).toFixed(2))}%` : 'no level: no decision';
};
