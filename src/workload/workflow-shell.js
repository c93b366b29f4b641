// The shell of a workflow's `run:` script, read only as far as a draft needs (./workflow-docker.js): its
// logical lines (backslash continuations joined) and, for a simple command or a two-part pipeline, its
// words. Anything richer (control flow, a heredoc, a subshell, command substitution) is not taken apart:
// the script stays a step as written. Not a shell parser: it says "not simple" rather than guess.

/**
 * @typedef {{ text: string, raw: string }} Line
 *   text: the logical line, continuations joined; raw: its physical lines as written
 * @typedef {{ op: string }} Operator
 */

/** Words that open or close shell control flow: a script with them at a line's start is kept whole. */
const CONTROL = /^\s*(if|then|elif|else|fi|for|while|until|do|done|case|esac|select|function|\{|\}|\(|\))(\s|$|;)/m;

/**
 * Whether the draft may take single lines out of the script (a docker command the workload carries):
 * not when a line could be part of a block, a heredoc's body, a function or a string over several lines.
 * @param {string} script
 */
export const linesSeparable = (script) =>
  !CONTROL.test(script) && !/<</.test(script) && logicalLines(script).every((l) => !quoteLeftOpen(l.text));

/** Whether a quote is still open at the line's end. @param {string} line */
function quoteLeftOpen(line) {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") quote = c === "'" ? '' : quote;
    else if (c === '\\') i++;
    else if (quote === '"') quote = c === '"' ? '' : quote;
    else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break;
  }
  return quote !== '';
}

/** Whether the line ends in an operator that joins it to the next (`&&`, `||`, `|`). @param {string} line */
export const continuesOnNext = (line) => /(&&|\|\||\|)\s*$/.test(line.replace(/\s+#.*$/, ''));

/**
 * The script's logical lines: a line ending in `\` continues on the next.
 * @param {string} script @returns {Line[]}
 */
export function logicalLines(script) {
  /** @type {Line[]} */
  const out = [];
  /** @type {string[]} */
  let raw = [];
  for (const physical of script.split('\n')) {
    raw.push(physical);
    if (/(^|[^\\])(\\\\)*\\$/.test(physical)) continue;
    out.push({ text: raw.map((l) => l.replace(/\\$/, '')).join(' '), raw: raw.join('\n') });
    raw = [];
  }
  if (raw.length) out.push({ text: raw.join(' '), raw: raw.join('\n') });
  return out;
}

/**
 * The line's words and operators, quotes removed; null when it holds what is not taken apart here
 * (command substitution, backquotes, an unterminated quote).
 * @param {string} line @returns {(string | Operator)[] | null}
 */
export function tokens(line) {
  /** @type {(string | Operator)[]} */
  const out = [];
  let word = '';
  let inWord = false;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = '';
      else word += c;
      continue;
    }
    if (c === '`' || (c === '$' && line[i + 1] === '(')) return null;
    if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) word += line[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      word += line[++i] ?? '';
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else if (c === '#' && !inWord) break;
    else if (/[|&;<>()]/.test(c)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
      const two = line.slice(i, i + 2);
      const op = ['||', '&&', '>>', '<<'].includes(two) ? two : c;
      i += op.length - 1;
      out.push({ op });
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) out.push(word);
  return out;
}

/** A simple command's words (no operator), else null. @param {string} line @returns {string[] | null} */
export function simpleWords(line) {
  const t = tokens(line);
  return t && t.every((x) => typeof x === 'string') ? /** @type {string[]} */ (t) : null;
}

/**
 * A pipeline of two simple commands (`echo "$T" | docker login …`), else null.
 * @param {string} line @returns {[string[], string[]] | null}
 */
export function twoCommandPipe(line) {
  const t = tokens(line);
  if (!t) return null;
  const ops = t.flatMap((x, i) => (typeof x === 'string' ? [] : [[x.op, i]]));
  if (ops.length !== 1 || ops[0][0] !== '|') return null;
  const at = /** @type {number} */ (ops[0][1]);
  return [/** @type {string[]} */ (t.slice(0, at)), /** @type {string[]} */ (t.slice(at + 1))];
}

/** The variable a word is only a reference to (`$X`, `${X}`), else null. @param {string} word */
export function variableOf(word) {
  const m = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(word);
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * The word with its variables replaced by their known values; null when one is not known.
 * @param {string} word @param {Record<string, string>} env @returns {string | null}
 */
export function resolveWord(word, env) {
  let unknown = false;
  const out = word.replace(/\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g, (_, a, b) => {
    const name = a ?? b;
    if (Object.hasOwn(env, name)) return env[name];
    unknown = true;
    return '';
  });
  return unknown || out.includes('$') ? null : out;
}

/** A word quoted for sh, as written into a drafted step. @param {string} s */
export const shellQuote = (s) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
