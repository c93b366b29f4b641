// The answer table the site opens on (overview version 7): the run's one short paragraph, one row per
// question (question | answer | change [interval] | $ per 1,000 jobs | open: what would decide it) under the
// title of the pair it judges, and the caveats once below: the Reading's own strings
// (src/reading/read-run.js), the same cells in the same order as report.md, report.html and the terminal.
// The overview file is data from a history anyone may have written: its answer is checked for shape and
// size first, anything unexpected is left out with a note saying so, and every string reaches the page as a
// text node (never as markup).

import { OUTCOMES, outcomeTone } from '#model/change.js';
import { checkParts, partsElement } from './parts.js';
import { ANSWER_LIMITS, isText, plain, textElement } from './words.js';

/**
 * @typedef {import('#model/reading.js').TextTable & { outcomes?: (import('#model/change.js').Outcome | null)[] }} CheckedTable
 *   outcomes: each row's outcome, when the file gives them (an older version-7 file does not: no colours)
 * @typedef {{ intro: string | null, leftOut: string, table: CheckedTable | null, caveats: string[],
 *   parts: import('./parts.js').CheckedParts[], problems: string[] }} CheckedAnswer
 *   parts: a workload job's parts (overview version 8), none in an older file
 */

/**
 * The answer of an overview file as the page may print it, each part checked on its own: a part of the wrong
 * shape or size is null (or empty) and named in `problems`, so the page says what it left out.
 * @param {unknown} raw `answer` of the overview file
 * @returns {CheckedAnswer}
 */
export function checkAnswer(raw) {
  /** @type {string[]} */
  const problems = [];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { intro: null, leftOut: '', table: null, caveats: [], parts: [], problems: ['the answer is not an object'] };
  const a = /** @type {Record<string, unknown>} */ (raw);
  const intro = isText(a.intro, ANSWER_LIMITS.paragraph) ? plain(a.intro) : null;
  if (intro === null) problems.push('its paragraph');
  let leftOut = '';
  if (isText(a.leftOut, ANSWER_LIMITS.paragraph)) leftOut = plain(a.leftOut);
  else if (a.leftOut !== undefined) problems.push('what the budget left out');
  const table = checkTable(a.table);
  if (!table) problems.push('its table');
  /** @type {string[]} */
  let caveats = [];
  if (
    Array.isArray(a.caveats) &&
    a.caveats.length <= ANSWER_LIMITS.caveats &&
    a.caveats.every((c) => isText(c, ANSWER_LIMITS.paragraph))
  )
    caveats = a.caveats.map(plain);
  else if (a.caveats !== undefined) problems.push('its caveats');
  const parts = a.parts === undefined ? [] : checkParts(a.parts);
  if (parts === null) problems.push("its job's parts");
  return { intro, leftOut, table, caveats, parts: parts ?? [], problems };
}

/**
 * A table of strings, every row as wide as the header, the groups and outcomes (when there) one per row,
 * each outcome one of the four or null; else null.
 * @param {unknown} raw @returns {CheckedTable | null}
 */
function checkTable(raw) {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { header, rows, groups, outcomes } = /** @type {Record<string, unknown>} */ (raw);
  const cells = (/** @type {unknown} */ r) =>
    Array.isArray(r) && r.length === width && r.every((c) => isText(c, ANSWER_LIMITS.cell));
  if (!Array.isArray(header) || header.length < 1 || header.length > ANSWER_LIMITS.columns) return null;
  const width = header.length;
  if (!cells(header) || !Array.isArray(rows) || rows.length > ANSWER_LIMITS.rows || !rows.every(cells)) return null;
  if (groups !== undefined && (!Array.isArray(groups) || groups.length !== rows.length)) return null;
  if (groups !== undefined && !groups.every((g) => isText(g, ANSWER_LIMITS.cell))) return null;
  const known = (/** @type {unknown} */ o) => o === null || OUTCOMES.some((x) => x === o);
  if (outcomes !== undefined && (!Array.isArray(outcomes) || outcomes.length !== rows.length || !outcomes.every(known)))
    return null;
  const text = (/** @type {string[]} */ r) => r.map(plain);
  return {
    header: text(/** @type {string[]} */ (header)),
    rows: /** @type {string[][]} */ (rows).map(text),
    ...(groups ? { groups: text(/** @type {string[]} */ (groups)) } : {}),
    ...(outcomes ? { outcomes: /** @type {CheckedTable['outcomes']} */ (outcomes) } : {}),
  };
}

/**
 * The answer table: a title row where the pair judged changes, then its questions. Each cell carries its
 * column's name (data-label) for the phone's layout, where each question is a block of labelled lines.
 * @param {CheckedTable} t
 */
function answerTable(t) {
  const table = document.createElement('table');
  table.id = 'answer-table';
  table.className = 'answers';
  const head = table.createTHead().insertRow();
  for (const h of t.header) {
    const th = textElement('th', h);
    th.scope = 'col';
    head.append(th);
  }
  const body = table.createTBody();
  t.rows.forEach((row, i) => {
    const g = t.groups?.[i];
    if (g !== undefined && g !== t.groups?.[i - 1]) {
      const tr = body.insertRow();
      tr.className = 'group';
      const th = textElement('th', g);
      th.colSpan = t.header.length;
      th.scope = 'colgroup';
      tr.append(th);
    }
    const tr = body.insertRow();
    tr.className = 'question';
    // The answer in colour by the question's outcome (a regression, an improvement), as report.html: never by its words.
    const tone = outcomeTone(t.outcomes?.[i]);
    row.forEach((cell, j) => {
      const td = document.createElement('td');
      if (j === 1 && tone) td.className = tone;
      td.dataset.label = t.header[j];
      // The words in one element of their own: on a phone the cell lays out its label beside it.
      td.append(textElement('span', cell, 'cell'));
      tr.append(td);
    });
  });
  return table;
}

/**
 * Fills `box` with the answer: what the budget left out, the paragraph, the table, the caveats, a workload
 * job's parts with their intervals (where its time goes, as every report lays them out); and a note
 * naming whatever part of the file's answer was not in the shape this page reads (left out, not guessed at).
 * @param {HTMLElement} box @param {unknown} raw the overview's `answer`
 */
export function renderAnswerTable(box, raw) {
  const a = checkAnswer(raw);
  box.replaceChildren();
  box.className = 'answer-box';
  if (a.leftOut) box.append(textElement('p', a.leftOut, 'answer-left worse'));
  if (a.intro) box.append(textElement('p', a.intro, 'answer-intro'));
  if (a.table && a.table.rows.length) {
    const wrap = document.createElement('div');
    wrap.className = 'answer-wrap';
    wrap.append(answerTable(a.table));
    box.append(wrap);
  } else if (a.table) box.append(textElement('p', 'This run asked no question of its environments.', 'note'));
  if (a.caveats.length) {
    const ul = document.createElement('ul');
    ul.className = 'note answer-caveats';
    for (const c of a.caveats) ul.append(textElement('li', c));
    box.append(ul);
  }
  if (a.parts.length) box.append(partsElement(a.parts));
  if (a.problems.length) {
    const note = textElement(
      'p',
      `Left out, as this page cannot read it from the run's overview file: ${a.problems.join(', ')}.`,
      'note answer-problem',
    );
    box.append(note);
  }
}
