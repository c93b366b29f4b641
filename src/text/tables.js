// Tables as text: aligned columns for a terminal (within 100 columns, a cell wrapping onto more lines rather
// than cut), pipes for Markdown (each cell whole). Every
// data-derived string goes through one function per format on its way out: termText for a terminal,
// mdText for Markdown (src/results/report-html.js has esc for HTML).

/** The widest a terminal table or a wrapped line may be. */
export const MAX_WIDTH = 100;

/** Every data-derived string printed in a terminal goes through here: no control characters (escape sequences). @param {unknown} s */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
export const termText = (s) => String(s ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

// Every data-derived string printed in Markdown goes through mdText (./escape.js): a cell never breaks its
// table, and a value never becomes a link, an image, raw HTML or a mention.
import { mdText } from './escape.js';
export { mdText };

/** @param {string} s */
const len = (s) => Array.from(s).length;

/**
 * Column widths that fit `maxWidth` once `extra` characters of separators are added: the widest column
 * gives way first, never below its longest word, so a cell wraps onto more lines and nothing is cut (a
 * table whose longest words alone are wider than `maxWidth` is wider than it, rather than cut).
 * @param {string[][]} cells header and rows @param {number} extra @param {number} maxWidth
 */
function fitWidths(cells, extra, maxWidth) {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => len(r[i] ?? ''))));
  const least = cells[0].map((_, i) => Math.max(1, ...cells.flatMap((r) => (r[i] ?? '').split(' ').map(len))));
  const total = () => widths.reduce((a, w) => a + w, 0) + extra;
  // A header wider than its column's values wraps first ("$ per 1,000 jobs" over "+$0.05").
  const body = cells[0].map((_, i) => Math.max(least[i], ...cells.slice(1).map((r) => len(r[i] ?? ''))));
  for (let i = 0; i < widths.length && total() > maxWidth; i++)
    widths[i] = Math.max(body[i], widths[i] - (total() - maxWidth));
  while (total() > maxWidth) {
    const room = widths.map((w, i) => (w > least[i] ? w : -1));
    const widest = room.indexOf(Math.max(...room));
    if (room[widest] < 0) break;
    widths[widest]--;
  }
  return widths;
}

/**
 * A cell's lines within `width` columns, broken at spaces (a word is never wider than its column: see
 * fitWidths).
 * @param {string} s @param {number} width @returns {string[]}
 */
function cellLines(s, width) {
  if (len(s) <= width) return [s];
  const lines = [];
  let line = '';
  for (const word of s.split(' ')) {
    if (line && len(line) + 1 + len(word) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/**
 * A plain-text table within `maxWidth` columns: a cell too long for its column wraps onto more lines of its
 * row; nothing is cut. `groups[i]`: a title printed on a line of its own before row i where it changes.
 * @param {string[]} header @param {string[][]} rows @param {{ maxWidth?: number, groups?: string[] }} [opts]
 */
export function textTable(header, rows, { maxWidth = MAX_WIDTH, groups } = {}) {
  const cells = [header, ...rows].map((r) => header.map((_, i) => termText(r[i])));
  const widths = fitWidths(cells, 2 * (header.length - 1), maxWidth);
  const row = (/** @type {string[]} */ r) => {
    const parts = r.map((c, i) => cellLines(c, widths[i]));
    const height = Math.max(...parts.map((p) => p.length));
    return Array.from({ length: height }, (_, k) =>
      parts
        .map((p, i) => (p[k] ?? '') + ' '.repeat(Math.max(0, widths[i] - len(p[k] ?? ''))))
        .join('  ')
        .trimEnd(),
    ).join('\n');
  };
  const body = cells.slice(1).map((r, i) => {
    const g = groups?.[i];
    return g !== undefined && g !== groups?.[i - 1] ? `${wrap(`${g}:`, maxWidth)}\n${row(r)}` : row(r);
  });
  return [row(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...body].join('\n');
}

/**
 * A Markdown table: one line per row, every cell whole (a renderer wraps it; a name is never cut).
 * @param {string[]} header @param {string[][]} rows
 */
export function markdownTable(header, rows) {
  const cells = [header, ...rows].map((r) => header.map((_, i) => mdText(r[i])));
  const line = (/** @type {string[]} */ r) => `| ${r.join(' | ')} |`;
  return [line(cells[0]), `|${header.map(() => '---').join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

/**
 * Wraps prose at `width` columns on spaces, continuation lines indented (for the terminal).
 * @param {string} text @param {number} [width]
 */
export function wrap(text, width = MAX_WIDTH) {
  const lines = [];
  let line = '';
  for (const word of termText(text).split(' ')) {
    if (line && Array.from(line).length + 1 + Array.from(word).length > width) {
      lines.push(line);
      line = `  ${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
