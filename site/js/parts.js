// A workload job's parts on the site (overview version 8): for each DinD environment against Docker, where
// the job's time goes (engine ready, each pull or load, each build, compose up, its test and down, each
// step), each side's median with its 95% interval and the difference with its own: the Reading's tables
// (src/reading/parts.js), laid out cell for cell as report.md, report.html and the terminal lay them out,
// below the answer. Data from a history anyone may have written: checked for shape and size first, and
// every string reaches the page as a text node.
import { ANSWER_LIMITS, isText, plain, textElement } from './words.js';

/** @typedef {{ title: string, header: string[], rows: string[][], note: string }} CheckedParts */

/** More tables than any run has (one per DinD environment and distro of each workload). */
const MAX_TABLES = 40;

/**
 * The parts tables as the page may print them, or null when any is not in the shape the Reading writes:
 * a title and a note of text, a header and rows of cells, every row as wide as the header.
 * @param {unknown} raw the overview answer's `parts` @returns {CheckedParts[] | null}
 */
export function checkParts(raw) {
  if (!Array.isArray(raw) || raw.length > MAX_TABLES) return null;
  /** @type {CheckedParts[]} */
  const out = [];
  for (const t of raw) {
    if (!t || typeof t !== 'object' || Array.isArray(t)) return null;
    const { title, header, rows, note } = /** @type {Record<string, unknown>} */ (t);
    if (!isText(title, ANSWER_LIMITS.cell) || !isText(note, ANSWER_LIMITS.paragraph)) return null;
    if (!Array.isArray(header) || header.length < 1 || header.length > ANSWER_LIMITS.columns) return null;
    const cells = (/** @type {unknown} */ r) =>
      Array.isArray(r) && r.length === header.length && r.every((c) => isText(c, ANSWER_LIMITS.cell));
    if (!cells(header) || !Array.isArray(rows) || rows.length > ANSWER_LIMITS.rows || !rows.every(cells)) return null;
    out.push({
      title: plain(title),
      header: /** @type {string[]} */ (header).map(plain),
      rows: /** @type {string[][]} */ (rows).map((r) => r.map(plain)),
      note: plain(note),
    });
  }
  return out;
}

/**
 * The parts below the answer: each table under its title, its note once below it. Each cell carries its
 * column's name (data-label) for the phone's layout, as the answer table's do.
 * @param {CheckedParts[]} parts @returns {HTMLElement}
 */
export function partsElement(parts) {
  const box = document.createElement('div');
  box.className = 'answer-parts';
  for (const t of parts) {
    box.append(textElement('h3', t.title, 'parts-title'));
    const table = document.createElement('table');
    table.className = 'answers parts';
    const head = table.createTHead().insertRow();
    for (const h of t.header) {
      const th = textElement('th', h);
      th.scope = 'col';
      head.append(th);
    }
    const body = table.createTBody();
    for (const row of t.rows) {
      const tr = body.insertRow();
      tr.className = 'question';
      row.forEach((cell, j) => {
        const td = document.createElement('td');
        td.dataset.label = t.header[j];
        td.append(textElement('span', cell, 'cell'));
        tr.append(td);
      });
    }
    const wrap = document.createElement('div');
    wrap.className = 'answer-wrap';
    wrap.append(table);
    box.append(wrap, textElement('p', t.note, 'note parts-note'));
  }
  return box;
}
