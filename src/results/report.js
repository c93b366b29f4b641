// report.md: a run's Reading (src/reading/read-run.js) laid out as Markdown, answer first (the answer table,
// one row per question, the caveats once), then the workload's costs, the mode table, the environments, and
// per benchmark the medians and each environment against Docker, what the run could detect and the cells
// that did not run. Nothing here computes a comparison: every figure is the Reading's.
import { costTable } from '../model/job-cost.js';
import { TOO_FEW_NOTE } from '../model/change.js';
import { answerMarkdown, costSentence, partsMarkdown } from '../text/answer.js';
import { markdownTable, mdText } from '../text/tables.js';
import { modesMarkdown } from '../text/modes.js';
import { mdBlock } from '../text/escape.js';
import { DETECTABLE_READING, READING } from '../reading/tables.js';

/** @typedef {import('../reading/read-run.js').RunReading} RunReading */

/**
 * The Markdown report of a run.
 * @param {RunReading} r the run's Reading @param {import('#model/results.js').Results} results its results (facts only)
 */
export function markdownReport(r, results) {
  const out = [`# dind-bench run ${mdText(r.run.id)}`, '', ...answerMarkdown(r), ''];
  out.push(`Host: ${mdText(r.run.host)}.`);
  if (costSentence(r)) out.push('', `**Cost per job:** ${mdText(costSentence(r))}`);
  for (const w of r.jobs) {
    const t = costTable(w);
    out.push('', `## ${mdText(t.title)}`, '', markdownTable(t.header, t.rows));
  }
  out.push(...partsMarkdown(r));
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
  if (r.tooFew) out.push('', TOO_FEW_NOTE);
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
