// Tables as text: aligned columns for a terminal, pipes for Markdown; both fit 120 columns. Every
// data-derived string goes through one function per format on its way out: termText for a terminal,
// mdText for Markdown (src/results/report-html.js has esc for HTML).

/** The widest a table may be in a terminal or a Markdown file read as text. */
export const MAX_WIDTH = 120;

/** Every data-derived string printed in a terminal goes through here: no control characters (escape sequences). @param {unknown} s */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
export const termText = (s) => String(s ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

// Every data-derived string printed in Markdown goes through mdText (./escape.js): a cell never breaks its
// table, and a value never becomes a link, an image, raw HTML or a mention.
import { mdText } from './escape.js';
export { mdText };

/**
 * Column widths that fit `maxWidth` once `extra` characters of separators are added: the widest column
 * is cut until the line fits, never below 8 characters.
 * @param {string[][]} cells header and rows @param {number} extra @param {number} maxWidth
 */
function fitWidths(cells, extra, maxWidth) {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => Array.from(r[i] ?? '').length)));
  const total = () => widths.reduce((a, w) => a + w, 0) + extra;
  while (total() > maxWidth) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= 8) break;
    widths[widest]--;
  }
  return widths;
}

/** @param {string} s @param {number} w */
const cut = (s, w) =>
  Array.from(s).length > w
    ? `${Array.from(s)
        .slice(0, w - 1)
        .join('')}…`
    : s;

/**
 * A plain-text table within `maxWidth` columns (a cell too long for it ends in "…").
 * @param {string[]} header @param {string[][]} rows @param {{ maxWidth?: number }} [opts]
 */
export function textTable(header, rows, { maxWidth = MAX_WIDTH } = {}) {
  const cells = [header, ...rows].map((r) => header.map((_, i) => termText(r[i])));
  const widths = fitWidths(cells, 2 * (header.length - 1), maxWidth);
  const line = (/** @type {string[]} */ r) =>
    r
      .map((c, i) => {
        const s = cut(c, widths[i]);
        return s + ' '.repeat(widths[i] - Array.from(s).length);
      })
      .join('  ')
      .trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/**
 * A Markdown table whose lines fit `maxWidth` columns when read as text (as textTable).
 * @param {string[]} header @param {string[][]} rows @param {{ maxWidth?: number }} [opts]
 */
export function markdownTable(header, rows, { maxWidth = MAX_WIDTH } = {}) {
  const cells = [header, ...rows].map((r) => header.map((_, i) => mdText(r[i])));
  const widths = fitWidths(cells, 3 * header.length + 1, maxWidth);
  const line = (/** @type {string[]} */ r) => `| ${r.map((c, i) => cut(c, widths[i])).join(' | ')} |`;
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
  return lines.map((l) => cut(l, width)).join('\n');
}
