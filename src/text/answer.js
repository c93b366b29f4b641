// The answer a run gives, laid out: the one short paragraph, the answer table (one row per question) and the
// caveats below it, as Markdown (report.md, the job summary, the pull-request comment), as terminal text
// (within 100 columns) and as HTML (report.html). Every figure is the Reading's own string
// (src/reading/read-run.js): these functions only escape and arrange, so every output shows the same table.
import { outcomeTone } from '../model/change.js';
import { mdText } from './escape.js';
import { markdownTable, textTable, wrap } from './tables.js';

/**
 * @typedef {Pick<import('#model/reading.js').Reading, 'intro' | 'leftOut' | 'table' | 'caveats'>} Answer
 */

/** Every data-derived string printed in HTML goes through here. @param {unknown} s */
export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The rows under their group titles: a title row (its title, then empty cells) where the group changes.
 * @param {import('#model/reading.js').TextTable} t @param {(title: string) => string} titled
 */
export function groupedRows(t, titled) {
  /** @type {string[][]} */
  const out = [];
  t.rows.forEach((row, i) => {
    const g = t.groups?.[i];
    if (g !== undefined && g !== t.groups?.[i - 1]) out.push([titled(g), ...row.slice(1).map(() => '')]);
    out.push(row);
  });
  return out;
}

/** The answer in Markdown. @param {Answer} r @returns {string[]} lines */
export function answerMarkdown(r) {
  // Every cell escaped before the group titles go in: a title is bold by where it is, not by what it says.
  const escaped = { ...r.table, rows: r.table.rows.map((row) => row.map(mdText)) };
  const rows = groupedRows(escaped, (g) => `**${mdText(g)}**`);
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`;
  return [
    ...(r.leftOut ? [`**${mdText(r.leftOut)}**`, ''] : []),
    mdText(r.intro),
    '',
    ...(rows.length
      ? [line(r.table.header.map(mdText)), `|${r.table.header.map(() => '---').join('|')}|`, ...rows.map(line), '']
      : []),
    ...r.caveats.map((c) => `- ${mdText(c)}`),
  ];
}

/** The answer for a terminal, within 100 columns. @param {Answer} r @returns {string[]} lines */
export function answerTerminal(r) {
  return [
    ...(r.leftOut ? [wrap(r.leftOut), ''] : []),
    wrap(r.intro),
    '',
    ...(r.table.rows.length ? [textTable(r.table.header, r.table.rows, { groups: r.table.groups }), ''] : []),
    ...r.caveats.map((c) => wrap(`· ${c}`)),
  ];
}

/** The answer as HTML. @param {Answer} r @returns {string} */
export function answerHtml(r) {
  const head = r.table.header.map((h) => `<th>${esc(h)}</th>`).join('');
  const rows = r.table.rows
    .map((row, i) => {
      const g = r.table.groups?.[i];
      const title =
        g !== undefined && g !== r.table.groups?.[i - 1]
          ? `<tr><th colspan="${row.length}" class="group">${esc(g)}</th></tr>\n`
          : '';
      // The answer cell coloured by the question's outcome (a regression, an improvement), not by its words.
      const tone = outcomeTone(r.table.outcomes[i]);
      return `${title}<tr>${row.map((c, j) => `<td${j === 1 && tone ? ` class="${tone}"` : ''}>${esc(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  return [
    ...(r.leftOut ? [`<p class="answer bad"><b>${esc(r.leftOut)}</b></p>`] : []),
    `<p class="answer">${esc(r.intro)}</p>`,
    ...(r.table.rows.length
      ? [
          `<div class="scroll"><table class="answers"><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table></div>`,
        ]
      : []),
    ...(r.caveats.length ? [`<ul class="note">${r.caveats.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>`] : []),
  ].join('\n');
}

/**
 * The cells that did not run, as lines for a terminal: "unavailable, 36 cells: reason. Cells: where" (the
 * Reading's own lines).
 * @param {{ problems: Array<{ line: string }> }} r
 */
export const problemLines = (r) => r.problems.map((g) => g.line);

/**
 * The cost per job (the Reading's one sentence), where the run measured a time a job pays (a workload's job,
 * a start-up); '' where it did not (the sentence would only say so).
 * @param {Pick<import('#model/reading.js').Reading, 'cost'>} r
 */
export const costSentence = (r) => (r.cost.seconds ? r.cost.sentence : '');

/** A workload job's parts, for a terminal. @param {Pick<import('#model/reading.js').Reading, 'parts'>} r @returns {string[]} lines */
export const partsTerminal = (r) =>
  r.parts.flatMap((t) => ['', wrap(t.title), textTable(t.header, t.rows), wrap(t.note)]);

/** A workload job's parts, in Markdown. @param {Pick<import('#model/reading.js').Reading, 'parts'>} r @returns {string[]} lines */
export const partsMarkdown = (r) =>
  r.parts.flatMap((t) => ['', `### ${mdText(t.title)}`, '', markdownTable(t.header, t.rows), '', mdText(t.note)]);

/** A workload job's parts, as HTML. @param {Pick<import('#model/reading.js').Reading, 'parts'>} r @returns {string} */
export const partsHtml = (r) =>
  r.parts
    .map(
      (t) =>
        `<h3>${esc(t.title)}</h3>\n<div class="scroll"><table><thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>\n` +
        t.rows.map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n') +
        `\n</tbody></table></div>\n<p class="note">${esc(t.note)}</p>`,
    )
    .join('\n');
