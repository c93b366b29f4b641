// The drafted YAML files (./from-workflow.js) with their notes: each note a comment where what it names
// stood, wrapped to about 100 columns, its values escaped, so a reader sees in the file what the job did
// that the file does not, and what to do.
import YAML from 'yaml';
import { logText } from '../text/escape.js';

/** @typedef {import('./draft-parts.js').Note} Note */

/**
 * YAML with each note as a comment where it stood: before the key or item its `at` names, below the list
 * for `after`, at the end when that node is not in the file.
 * @param {unknown} value @param {Note[]} notes @param {string[]} header comment lines
 */
export function yamlWithNotes(value, notes, header) {
  const doc = new YAML.Document(value);
  doc.commentBefore = header.join('\n');
  /** @type {string[]} */
  const trailing = [];
  for (const n of notes) {
    const text = commentOf(n);
    const node = n.after ? doc.getIn(n.at, true) : keyNode(doc, n.at);
    if (!YAML.isNode(node)) trailing.push(text);
    else if (n.after) node.comment = join(node.comment, text);
    else node.commentBefore = join(node.commentBefore, text);
  }
  if (trailing.length) doc.comment = trailing.join('\n');
  return doc.toString({ lineWidth: 0 });
}

/**
 * The node a comment goes before: a mapping's key, a list's item.
 * @param {YAML.Document} doc @param {(string | number)[]} at @returns {YAML.Node | null}
 */
function keyNode(doc, at) {
  if (!at.length) return null;
  const parent = at.length === 1 ? doc.contents : doc.getIn(at.slice(0, -1), true);
  const last = at[at.length - 1];
  if (YAML.isMap(parent)) {
    const pair = parent.items.find((p) => YAML.isScalar(p.key) && p.key.value === last);
    return pair && YAML.isScalar(pair.key) ? pair.key : null;
  }
  if (YAML.isSeq(parent) && typeof last === 'number') {
    const item = parent.items[last];
    return YAML.isNode(item) ? item : null;
  }
  return null;
}

/** @param {string | null | undefined} a @param {string} b */
const join = (a, b) => (a ? `${a}\n${b}` : b);

/** A note as comment lines of about 100 columns at most, its values escaped. @param {Note} n */
const commentOf = (n) =>
  [...wrap(`not carried: ${logText(n.text)}`), ...wrap(`  what to do: ${logText(n.todo)}`)].join('\n');

/** @param {string} text @returns {string[]} lines, each after the first indented under it */
function wrap(text) {
  const indent = text.startsWith('  ') ? '    ' : '  ';
  const lines = [''];
  for (const w of text.split(' ')) {
    if (lines[lines.length - 1].length + w.length > 96 && lines[lines.length - 1].trim()) lines.push(indent);
    lines[lines.length - 1] += ` ${w}`;
  }
  return lines;
}
