// report.md: a run's Reading (src/reading/read-run.js) laid out as Markdown, answer first (the answer table,
// one row per question, the caveats once), then the workload's costs, the mode table, the environments, and
// per benchmark the medians and each environment against Docker, what the run could detect and the cells
// that did not run. Nothing here computes a comparison: every figure is the Reading's.
import { costTable } from '../model/job-cost.js';
import { MODE_TABLE_READING, modeTableText } from '../model/isolation.js';
import { TOO_FEW_NOTE } from '../model/change.js';
import { answerMarkdown } from '../text/answer.js';
import { markdownTable, mdText, wrap } from '../text/tables.js';
import { mdBlock } from '../text/escape.js';
import { DETECTABLE_READING, READING } from '../reading/tables.js';

/** @typedef {import('../reading/read-run.js').RunReading} RunReading */

/** The mode table's Markdown section (empty without one). @param {import('../reading/read-run.js').ModesOf} m */
export function modesMarkdown(m) {
  if (!m) return [];
  const t = modeTableText(m);
  return [
    '',
    `## ${mdText(t.title)}`,
    '',
    ...(m.answer ? [`**${mdText(m.answer)}**`, ''] : []),
    ...(m.policyError ? [mdText(m.policyError), ''] : []),
    // Wider than the report's other tables: a mode's facts and verdicts are read across, not cut.
    markdownTable(t.header, t.rows),
    '',
    mdText(MODE_TABLE_READING),
  ];
}

/**
 * The mode table for a terminal: a block per mode (its name and whether it meets the policy, its facts,
 * what it costs, its verdicts against docker), each line wrapped, then the answer. Empty without one.
 * @param {import('../reading/read-run.js').ModesOf} m @returns {string[]}
 */
export function modesTerminal(m) {
  if (!m) return [];
  const t = modeTableText(m);
  const at = (/** @type {string[]} */ r, /** @type {string} */ label) => r[t.header.indexOf(label)];
  const facts = t.header.slice(m.policy ? 2 : 1, t.header.indexOf('start-up a job pays'));
  const blocks = t.rows.map((r) => {
    const meets = m.policy ? ` (meets ${m.policy}: ${r[1]})` : '';
    const cost = t.header.slice(t.header.indexOf('start-up a job pays'), t.header.indexOf('against docker'));
    return [
      `${r[0]}${meets}`,
      wrap(`  isolation: ${facts.map((h) => `${h} ${at(r, h)}`).join(' · ')}`),
      wrap(`  ${[...cost, 'cells failed'].map((h) => `${h} ${at(r, h)}`).join(' · ')}`),
      wrap(`  against docker: ${at(r, 'against docker')}`),
    ].join('\n');
  });
  return [
    `${t.title}\n\n${blocks.join('\n\n')}`,
    ...(m.policyError ? [wrap(m.policyError)] : []),
    ...(m.answer ? [wrap(m.answer)] : []),
  ];
}

/**
 * The Markdown report of a run.
 * @param {RunReading} r the run's Reading @param {import('#model/results.js').Results} results its results (facts only)
 */
export function markdownReport(r, results) {
  const out = [`# dind-bench run ${mdText(r.run.id)}`, '', ...answerMarkdown(r), ''];
  out.push(`Host: ${mdText(r.run.host)}.`);
  for (const w of r.jobs) {
    const t = costTable(w);
    out.push('', `## ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  }
  out.push(...modesMarkdown(r.modes));
  if (r.samplingNote) out.push('', mdText(r.samplingNote));
  out.push('', '| environment | status | engine | storage driver | DinD start mode |', '|---|---|---|---|---|');
  for (const e of results.environments) {
    const status = `${e.status}${e.facts?.isolation ? ` (${e.facts.isolation})` : ''}`;
    out.push(
      `| ${[e.key, status, e.facts?.engineVersion ?? '–', e.facts?.storageDriver ?? '–', e.facts?.dind?.mode ?? '–'].map(mdText).join(' | ')} |`,
    );
  }
  out.push('', READING);
  if (tooFew(r)) out.push('', TOO_FEW_NOTE);
  for (const t of r.tables) out.push('', `## ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  if (r.detectable.length) {
    out.push('', '## What this run can detect', '', DETECTABLE_READING);
    for (const t of r.detectable) out.push('', `### ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  }
  if (r.seriesNote) out.push('', mdText(r.seriesNote));
  if (r.problems.length) {
    out.push('', '## Cells that did not run', '');
    for (const g of r.problems) {
      out.push(
        `- **${mdText(g.status)}**, ${g.count} cell${g.count > 1 ? 's' : ''}: ${mdText(g.reason)}<br>Cells: ${mdText(g.where)}`,
      );
      if (g.tail) out.push('', mdBlock(g.tail, '  '));
    }
  }
  return out.join('\n') + '\n';
}

/** Whether a table below shows a comparison with too few samples for any test. @param {RunReading} r */
export const tooFew = (r) =>
  r.tables.some((t) =>
    t.comparisons.some((row) => row.some((c) => c?.outcome === 'inconclusive' && c.detectable.change === null)),
  );

/** The cells that did not run, as lines for a terminal: "unavailable, 36 cells: reason. Cells: where". @param {RunReading} r */
export const problemLines = (r) =>
  r.problems.map(
    (g) => `${g.status}, ${g.count} cell${g.count > 1 ? 's' : ''}: ${/[.!?:]$/.test(g.reason) ? g.reason : `${g.reason}.`} Cells: ${g.where}`,
  );
