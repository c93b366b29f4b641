// `compare`'s outputs, each a layout of the run's one Reading (src/reading/read-run.js): the terminal report,
// the Markdown report (the GitHub job summary), the pull-request comment and the JSON document (the workflow
// outputs). Every one opens with the same answer table (../text/answer.js); none computes a comparison.
import { markdownTable, mdText, textTable, wrap } from '../text/tables.js';
import { answerMarkdown, answerTerminal, costSentence, partsMarkdown, partsTerminal } from '../text/answer.js';
import { comparisonTables, groupedInsufficient, verdictCounts, verdictTable } from './rows.js';
import { mdCode } from '../text/escape.js';
import { FALSE_ALARM_RATE } from '../reading/decide.js';
import { TOO_FEW_NOTE } from '../model/change.js';
import { modesMarkdown, modesTerminal } from '../text/modes.js';

/**
 * @typedef {import('../reading/read-run.js').RunReading} RunReading
 * @typedef {{ results: import('#model/results.js').Results, reading: RunReading,
 *   verdicts: import('./against-history.js').SeriesVerdict[] | null }} CompareOutcome
 *   verdicts: the run's series against their history (compare --history), null without one
 */

const HOW_TO_READ =
  "Every comparison of the run, medians per side; outcome: the change of the candidate against the baseline, + is worse for the metric's " +
  "direction. Only each benchmark's decision metric (the number a job pays) is decided, for the pairs the run asks " +
  '(the answer above); every other metric is "described": its change and 95% interval, no outcome. ± is half the ' +
  "interval's width in points.";

/** The legend, with the "(too few)" footnote once when a comparison needs it. @param {CompareOutcome} o */
function legend(o) {
  const tooFew = o.reading.comparisons.some((c) => c.outcome === 'inconclusive' && c.detectable.change === null);
  return tooFew ? [HOW_TO_READ, TOO_FEW_NOTE] : [HOW_TO_READ];
}

/** @param {CompareOutcome} o */
export function terminalReport(o) {
  const r = o.reading;
  const out = [
    `dind-bench compare: run ${r.run.id} (${r.run.profile}) on ${r.run.runner}`,
    '',
    // The cost per job first, as the job summary and the comment open with it.
    ...(costSentence(r) ? [wrap(`Cost per job: ${costSentence(r)}`), ''] : []),
    ...answerTerminal(r),
    ...partsTerminal(r),
    ...(o.verdicts ? ['', wrap(`Against history: ${r.gate.sentence}`)] : []),
    '',
  ];
  for (const l of legend(o)) out.push(wrap(l));
  for (const t of comparisonTables(r.comparisons)) out.push('', wrap(t.title), textTable(t.header, t.rows));
  if (r.comparisons.length === 0)
    out.push('', 'No pairs to compare (the run needs docker and a dind, native or alpine cell of the same benchmark).');
  if (o.verdicts) {
    const t = verdictTable(o.verdicts);
    out.push('', wrap(`Against history: ${countsLine(o.verdicts)}`));
    if (t.rows.length) out.push(textTable(t.header, t.rows));
    for (const g of groupedInsufficient(o.verdicts))
      out.push(wrap(`insufficient data, ${g.count} series: ${g.reason}`));
  }
  for (const m of modesTerminal(r.modes)) out.push('', m);
  // Control characters are what is stripped here (escape sequences from a results file).
  // eslint-disable-next-line no-control-regex
  return out.map((l) => l.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ')).join('\n') + '\n';
}

/**
 * The top of the job summary and of the pull-request comment: the cost per job of the first answer, in
 * bold, then the answer table and its caveats, then, against history, the gate's sentence.
 * @param {CompareOutcome} o
 */
export function headline(o) {
  const r = o.reading;
  return [
    `**Cost per job:** ${mdText(r.cost.sentence)}`,
    '',
    ...answerMarkdown(r),
    ...(o.verdicts ? ['', `**Against history:** ${mdText(r.gate.sentence)}`] : []),
  ].join('\n');
}

/**
 * Where the full report and the site are, as a Markdown line, from the Actions environment: the run's page
 * (its artifacts) and DIND_BENCH_SITE_URL. Each checked (https, the forms GitHub uses) before it is printed.
 * @param {NodeJS.ProcessEnv} [env] @returns {string | null}
 */
export function linksLine(env = process.env) {
  const links = [];
  const server = env.GITHUB_SERVER_URL ?? '';
  const repo = env.GITHUB_REPOSITORY ?? '';
  const run = env.GITHUB_RUN_ID ?? '';
  if (/^https:\/\/[\w.-]+$/.test(server) && /^[\w.-]+\/[\w.-]+$/.test(repo) && /^\d{1,20}$/.test(run))
    links.push(`[full report (this run's artifacts)](${server}/${repo}/actions/runs/${run})`);
  const site = env.DIND_BENCH_SITE_URL ?? '';
  if (/^https:\/\/[\w.-]+(\/[\w./-]*)?$/.test(site)) links.push(`[history site](${site})`);
  return links.length ? links.join(' · ') : null;
}

/** The answer, then the links: the top of the job summary and of the comment. @param {CompareOutcome} o */
function answerFirst(o) {
  const links = linksLine();
  return [headline(o), ...(links ? ['', links] : [])];
}

/**
 * The job summary: the answer, then the run's tables. `answered`: the answer is already above (the
 * pull-request comment folds this report under its own answer), so it is not said twice.
 * @param {CompareOutcome} o @param {{ answered?: boolean }} [opts]
 */
export function markdownReport(o, { answered = false } = {}) {
  const r = o.reading;
  const out = [
    ...(answered ? [] : [...answerFirst(o), '']),
    `## dind-bench: run ${mdText(r.run.id)}`,
    '',
    `Profile **${mdText(r.run.profile)}**, ${r.run.iterations} iterations, runner ${mdText(r.run.runner)}.`,
  ];
  out.push(...partsMarkdown(r));
  out.push(...legend(o).map((l) => `\n${l}`));
  if (o.verdicts) {
    const t = verdictTable(o.verdicts);
    out.push('', `### Against history: ${countsLine(o.verdicts)}`);
    if (t.rows.length) out.push('', markdownTable(t.header, t.rows));
    for (const g of groupedInsufficient(o.verdicts))
      out.push('', `Insufficient data, ${g.count} series: ${mdText(g.reason)}`);
  }
  for (const t of comparisonTables(r.comparisons))
    out.push('', `### ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  out.push(...modesMarkdown(r.modes));
  return out.join('\n') + '\n';
}

/**
 * A short comment for the pull request: the headline, regressions and improvements against history listed,
 * the full report folded away.
 * @param {CompareOutcome} o
 */
export function prComment(o) {
  const out = [...answerFirst(o), '', '### dind-bench'];
  if (o.verdicts) {
    out.push('', `**Against history:** ${countsLine(o.verdicts)}`);
    const notable = o.verdicts.filter((v) => v.status === 'regression' || v.status === 'improvement');
    for (const v of notable) {
      const where = `${mdText(v.benchmark)} ${mdCode(v.metric)} on ${mdText(`${v.environmentKey}/${v.distro}`)}`;
      out.push(
        `- ${v.status === 'regression' ? ':red_circle:' : ':green_circle:'} **${v.status}** ${where}: ${mdText(v.reason)}`,
      );
    }
  }
  out.push('', '<details><summary>Full report</summary>', '', markdownReport(o, { answered: true }), '</details>');
  return out.join('\n') + '\n';
}

/**
 * `compare --json`: the Reading as it is (the answer table, the questions with their numbers, the cost, the
 * gate, every comparison), and the history verdicts.
 * @param {CompareOutcome} o
 */
export function verdictsDocument(o) {
  const r = o.reading;
  return {
    schema: 'dind-bench.compare/2',
    run: { id: r.run.id, fingerprint: o.results.host.fingerprint, runner: r.run.runner },
    intro: r.intro,
    table: r.table,
    questions: r.questions,
    decided: r.decided,
    caveats: r.caveats,
    cost: r.cost,
    parts: r.parts,
    gate: r.gate,
    falseAlarmRate: FALSE_ALARM_RATE,
    counts: o.verdicts ? verdictCounts(o.verdicts) : null,
    verdicts: o.verdicts,
    comparisons: r.comparisons,
    // The mode table (src/reading/modes.js): rows with each fact's value and evidence, and the answer.
    modes: r.modes,
  };
}

/** @param {import('./against-history.js').SeriesVerdict[]} verdicts */
function countsLine(verdicts) {
  const c = verdictCounts(verdicts);
  return Object.entries(c)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}
