// The comparison as text: a terminal table, a Markdown report (the GitHub job summary), a pull-request
// comment, and a JSON document of verdicts.
import { UPGRADE, answers, modesMarkdown, modesTerminal } from '../results/report.js';
import { pricingOf } from '../results/job-cost.js';
import { TOO_FEW_NOTE, anyTooFew, versusTitle } from '../results/within-run.js';
import { markdownTable, mdText, textTable, wrap } from '../text/tables.js';
import { comparisonTables, groupedInsufficient, verdictCounts, verdictTable } from './rows.js';
import { mdCode } from '../text/escape.js';
import { FALSE_ALARM_RATE } from '../reading/decide.js';
import { costAnswer, startupPhases } from '../reading/answer.js';

/**
 * @typedef {{ results: any, comparisons: import('../results/within-run.js').Comparison[], verdicts: import('./against-history.js').SeriesVerdict[] | null,
 *   gate?: import('../reading/gate.js').Gate, price?: number, billing?: import('../model/job-cost.js').Billing,
 *   modes?: ReturnType<typeof import('../results/report.js').modesOf> }} CompareOutcome
 * price, billing: compare's --price-per-minute and --billing; each absent, the run's own (run.args) or the default
 */

const HOW_TO_READ =
  "Medians per side; outcome: the change of the candidate against the baseline, + is worse for the metric's " +
  "direction. Only each benchmark's decision metric (the number a job pays) is decided, for the pairs the run asks; " +
  "its interval (Welch, on log values, at the level that holds wrong decisions at 5% over the run's decisions and " +
  'looks) gives the outcome: wholly beyond +T "▲ regression", beyond -T "▼ improvement", inside ±T "equivalent", ' +
  'anything else "inconclusive", with the smallest change it could have shown ("sees ≥"). Every other metric is ' +
  '"described": its change and 95% interval, no outcome. ± is half the interval\'s width in points.';

/** The legend, with the "(too few)" footnote once when a comparison needs it. @param {CompareOutcome} o */
function legend(o) {
  return anyTooFew(o.comparisons) ? [HOW_TO_READ, TOO_FEW_NOTE] : [HOW_TO_READ];
}

/** Each outcome's answer sentences, composed once: the terminal, the headline (job summary and PR comment) and the JSON all read them. */
const answered = new WeakMap();
/** @param {CompareOutcome} o @returns {string[]} */
function answersOf(o) {
  if (!answered.has(o)) answered.set(o, answers(o.results, o.comparisons, { price: o.price, billing: o.billing }));
  return answered.get(o);
}

/** The cost per job of an outcome (../reading/answer.js costAnswer), composed once like the answers. */
const costed = new WeakMap();
/** @param {CompareOutcome} o @returns {import('../reading/answer.js').CostAnswer} */
export function costOfOutcome(o) {
  if (!costed.has(o)) {
    // The environments in the order the answers report them, so the cost is the first answer's.
    const order = o.results.environments.map((e) => e.key);
    const against = o.comparisons
      .filter((c) => c.kind === 'dind-vs-docker')
      .sort((a, b) => order.indexOf(a.candidate.env) - order.indexOf(b.candidate.env));
    const first = against.find((c) => c.benchmark === 'lifecycle');
    const phases = first ? startupPhases(o.results, first.candidate.env, first.candidate.distro) : undefined;
    costed.set(o, costAnswer(against, { ...pricingOf(o.results, { price: o.price, billing: o.billing }), phases }));
  }
  return costed.get(o);
}

/**
 * The first line of the job summary and of the pull-request comment: the cost per job, in bold. When an
 * answer opens with the same sentence (the start-up's), `rest` is that answer without it, so nothing is
 * said twice.
 * @param {string} cost the cost sentence @param {string} [answer]
 */
export function costFirst(cost, answer) {
  const rest = answer?.startsWith(cost) ? answer.slice(cost.length).trim() : answer;
  return [`**Cost per job:** ${mdText(cost)}`, ...(rest ? ['', mdText(rest)] : [])];
}

/** @param {CompareOutcome} o */
export function terminalReport(o) {
  const out = [
    `dind-bench compare: run ${o.results.run.id} (${o.results.run.profile}, ${o.results.run.iterations} iterations) on ${o.results.runner.name}`,
    '',
    ...answersOf(o).map((a) => wrap(a)),
    ...(o.verdicts && o.gate ? ['', wrap(`Against history: ${o.gate.sentence}`)] : []),
    '',
  ];
  for (const l of legend(o)) out.push(wrap(l));
  for (const t of comparisonTables(o.comparisons)) out.push('', t.title, textTable(t.header, t.rows));
  if (o.comparisons.length === 0)
    out.push('', 'No pairs to compare (the run needs docker and a dind, native or alpine cell of the same benchmark).');
  if (o.verdicts) {
    const t = verdictTable(o.verdicts);
    out.push('', wrap(`Against history: ${countsLine(o.verdicts)}`));
    if (t.rows.length) out.push(textTable(t.header, t.rows));
    for (const g of groupedInsufficient(o.verdicts))
      out.push(wrap(`insufficient data, ${g.count} series: ${g.reason}`));
  }
  for (const m of modesTerminal(o.modes ?? null)) out.push('', m);
  // Control characters are what is stripped here (escape sequences from a results file).
  // eslint-disable-next-line no-control-regex
  return out.map((l) => l.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ')).join('\n') + '\n';
}

/**
 * The cost per job first (costOfOutcome: the team's own job, or the start-up a job pays), then what the
 * first environment compared with Docker does by benchmark (../results/report.js answers, from the
 * reading), what a later inner Engine line does to a job where the run measured two, then, against
 * history, the gate's sentence. The first lines of the job summary and of the pull-request comment.
 * @param {CompareOutcome} o
 */
export function headline(o) {
  const all = answersOf(o);
  const first = all.find((a) => !a.includes('not compared with Docker') && !a.startsWith(UPGRADE));
  const lines = costFirst(costOfOutcome(o).sentence, first ?? 'No environment was compared with Docker in this run.');
  for (const a of all.filter((x) => x.startsWith(UPGRADE))) lines.push('', mdText(a));
  if (o.verdicts && o.gate) lines.push('', `**Against history:** ${mdText(o.gate.sentence)}`);
  return lines.join('\n');
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

/** @param {CompareOutcome} o */
export function markdownReport(o) {
  const r = o.results;
  const out = [
    ...answerFirst(o),
    '',
    `## dind-bench: run ${mdText(r.run.id)}`,
    '',
    `Profile **${mdText(r.run.profile)}**, ${r.run.iterations} iterations, runner ${mdText(r.runner.name)}.`,
  ];
  out.push(...legend(o).map((l) => `\n${l}`));
  if (o.verdicts) {
    const t = verdictTable(o.verdicts);
    out.push('', `### Against history: ${countsLine(o.verdicts)}`);
    if (t.rows.length) out.push('', markdownTable(t.header, t.rows));
    for (const g of groupedInsufficient(o.verdicts))
      out.push('', `Insufficient data, ${g.count} series: ${mdText(g.reason)}`);
  }
  for (const t of comparisonTables(o.comparisons))
    out.push('', `### ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  out.push(...modesMarkdown(o.modes ?? null));
  return out.join('\n') + '\n';
}

/**
 * A short comment for the pull request: the headline, regressions and improvements listed, everything
 * else folded away.
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
  // One line per environment compared with Docker, titled by that environment (dood is not DinD), and per
  // later inner Engine line against the run's oldest (the upgrade question).
  const against = o.comparisons.filter((c) => c.kind === 'dind-vs-docker' || c.kind === 'engine-line');
  for (const title of new Set(against.map(versusTitle))) {
    // Counted over its decisions: the described metrics answer no question.
    const mine = against.filter((c) => versusTitle(c) === title && c.decision);
    const n = (/** @type {string} */ x) => mine.filter((c) => c.outcome === x).length;
    out.push(
      '',
      `**${mdText(title)}:** of ${mine.length} decisions, ${n('regression')} regression, ${n('inconclusive')} inconclusive, ${n('improvement')} improvement, ${n('equivalent')} equivalent.`,
    );
  }
  out.push('', '<details><summary>Full report</summary>', '', markdownReport(o), '</details>');
  return out.join('\n') + '\n';
}

/** @param {CompareOutcome} o */
export function verdictsDocument(o) {
  return {
    schema: 'dind-bench.compare/1',
    run: { id: o.results.run.id, fingerprint: o.results.host.fingerprint, runner: o.results.runner.name },
    answers: answersOf(o),
    cost: costOfOutcome(o),
    gate: o.gate ?? null,
    falseAlarmRate: FALSE_ALARM_RATE,
    counts: o.verdicts ? verdictCounts(o.verdicts) : null,
    verdicts: o.verdicts,
    comparisons: o.comparisons,
    // The mode table (src/reading/modes.js): rows with each fact's value and evidence, and the answer.
    modes: o.modes ?? null,
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
