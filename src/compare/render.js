// The comparison as text: a terminal table, a Markdown report (the GitHub job summary), a pull-request
// comment, and a JSON document of verdicts.
import { markdownTable, textTable } from '../results/report.js';
import { comparisonTables, verdictCounts, verdictTable } from './rows.js';

/**
 * @typedef {{ results: any, comparisons: import('./within-run.js').Comparison[], verdicts: import('./against-history.js').SeriesVerdict[] | null }} CompareOutcome
 */

const HOW_TO_READ =
  'ratio = candidate median / baseline median with its 95% bootstrap interval; p from the Mann-Whitney U test; ' +
  "Cliff's delta from -1 to 1 with its magnitude. A difference reads as worse/better only when p < 0.05 and the interval excludes 1.";

/** @param {CompareOutcome} o */
export function terminalReport(o) {
  const out = [`dind-bench compare: run ${o.results.run.id} (${o.results.run.profile}, ${o.results.run.iterations} iterations) on ${o.results.runner.name}`, HOW_TO_READ];
  for (const t of comparisonTables(o.comparisons)) out.push('', t.title, textTable(t.header, t.rows));
  if (o.comparisons.length === 0) out.push('', 'No pairs to compare (the run needs docker and a dind, native or alpine cell of the same benchmark).');
  if (o.verdicts) {
    const t = verdictTable(o.verdicts);
    out.push('', `Against history: ${countsLine(o.verdicts)}`, textTable(t.header, t.rows));
  }
  return out.join('\n') + '\n';
}

/** @param {CompareOutcome} o */
export function markdownReport(o) {
  const out = [`## dind-bench: run ${o.results.run.id}`, '', `Profile **${o.results.run.profile}**, ${o.results.run.iterations} iterations, runner ${o.results.runner.name}. ${HOW_TO_READ}`];
  if (o.verdicts) {
    const t = verdictTable(o.verdicts);
    out.push('', `### Against history: ${countsLine(o.verdicts)}`, '', markdownTable(t.header, t.rows.map(escapeRow)));
  }
  for (const t of comparisonTables(o.comparisons)) out.push('', `### ${t.title}`, '', markdownTable(t.header, t.rows.map(escapeRow)));
  return out.join('\n') + '\n';
}

/**
 * A short comment for the pull request: the headline, regressions and improvements listed, everything
 * else folded away.
 * @param {CompareOutcome} o
 */
export function prComment(o) {
  const out = ['### dind-bench'];
  if (o.verdicts) {
    out.push('', `**Against history:** ${countsLine(o.verdicts)}`);
    const notable = o.verdicts.filter((v) => v.status === 'regression' || v.status === 'improvement');
    for (const v of notable) out.push(`- ${v.status === 'regression' ? ':red_circle:' : ':green_circle:'} **${v.status}** ${v.benchmark} \`${v.metric}\` on ${v.environmentKey}/${v.distro}: ${v.reason}`);
  }
  const dind = o.comparisons.filter((c) => c.kind === 'dind-vs-docker' && c.significant);
  out.push('', `**DinD vs Docker:** ${dind.filter((c) => c.worse > 0).length} metric(s) significantly worse, ${dind.filter((c) => c.worse < 0).length} better, of ${o.comparisons.filter((c) => c.kind === 'dind-vs-docker').length}.`);
  out.push('', '<details><summary>Full report</summary>', '', markdownReport(o), '</details>');
  return out.join('\n') + '\n';
}

/** @param {CompareOutcome} o */
export function verdictsDocument(o) {
  return {
    schema: 'dind-bench.compare/1',
    run: { id: o.results.run.id, fingerprint: o.results.host.fingerprint, runner: o.results.runner.name },
    counts: o.verdicts ? verdictCounts(o.verdicts) : null,
    verdicts: o.verdicts,
    comparisons: o.comparisons,
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

/** @param {string[]} row */
const escapeRow = (row) => row.map((c) => c.replace(/\|/g, '\\|'));
