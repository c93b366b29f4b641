// The mode table (src/reading/modes.js, the Reading's `modes`) laid out: a Markdown section (report.md, the
// job summary) and blocks for a terminal. The HTML is report.html's (src/results/report-html.js modesHtml).
import { MODE_TABLE_READING, modeTableText } from '../model/isolation.js';
import { markdownTable, mdText, wrap } from './tables.js';

/** @typedef {(import('#model/isolation.js').ModeTable & { policyError: string | null }) | null} Modes */

/** The mode table's Markdown section (empty without one). @param {Modes} m */
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
 * @param {Modes} m @returns {string[]}
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
