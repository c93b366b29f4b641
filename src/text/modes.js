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
  // Columns by their place in the table (modeTableText's `at`): each heading beside its cell.
  const cells = (/** @type {string[]} */ r, /** @type {number[]} */ cols) =>
    cols.map((i) => `${t.header[i]} ${r[i]}`).join(' · ');
  const range = (/** @type {number} */ from, /** @type {number} */ to) =>
    Array.from({ length: to - from }, (_, k) => from + k);
  const blocks = t.rows.map((r) => {
    const meets = m.policy ? ` (meets ${m.policy}: ${r[1]})` : '';
    return [
      `${r[0]}${meets}`,
      wrap(`  isolation: ${cells(r, range(t.at.facts, t.at.startup))}`),
      wrap(`  ${cells(r, [...range(t.at.startup, t.at.against), t.at.against + 1])}`),
      wrap(`  against docker: ${r[t.at.against]}`),
    ].join('\n');
  });
  return [
    `${t.title}\n\n${blocks.join('\n\n')}`,
    ...(m.policyError ? [wrap(m.policyError)] : []),
    ...(m.answer ? [wrap(m.answer)] : []),
  ];
}
