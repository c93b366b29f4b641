// Printing values that came from data (results files, history files, artifacts of other jobs): every
// run id, runner name, benchmark, metric, reason or engine message is hostile until escaped for where
// it goes. Two sinks matter:
//   - Markdown rendered by GitHub (job summary, report.md, pull-request comments): a value must stay
//     one piece of plain text, never an image, link, raw HTML (`</details>`), @mention, table row or
//     list item of its own;
//   - an Actions log: a line starting with `::` is a workflow command (`::stop-commands::`,
//     `::add-mask::`, `::warning::`), and `##[` anywhere a legacy one; a value must never start a line.
// @actions/core escapes only command arguments (core.warning's message and properties); plain log
// lines are ours to keep safe, here.

// Control characters, including line and paragraph separators and the bidirectional overrides that
// make text read differently from what it is.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

// WORD JOINER: invisible, not whitespace, so it splits `@name` and `#123` for GitHub's reference and
// mention linking (which run on the rendered text, after Markdown escapes are gone) and keeps a line
// from starting with `::` even after the runner trims leading whitespace.
const WJ = '\u2060';

const ENTITY = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * One value as inline Markdown text, rendered exactly as the characters it holds, on one line. For
 * values inside a line (a table cell, after a heading's `#`, after a list item's `-`), never at its
 * start. Escapes only what can change the rendering, so the Markdown source stays readable.
 * @param {unknown} value
 */
export function mdText(value) {
  return (
    String(value ?? '')
      .replace(CONTROL, ' ')
      // Raw HTML and entity references (`</details>`, `<img>`, `&#64;`).
      .replace(/[&<>]/g, (c) => ENTITY[/** @type {'&' | '<' | '>'} */ (c)])
      // Code spans, emphasis, strikethrough, links and images (`[`/`]`), table cells (`|`), math (`$`),
      // and the backslash itself (CommonMark allows a backslash before any ASCII punctuation).
      .replace(/[\\`*[\]|~$]/g, '\\$&')
      // `_` emphasises only at a word's edge (`create_ms` stays as it is).
      .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
      // GFM's autolinks (`http://`, `www.`, `name@host`) and GitHub's @mentions and #123 references are
      // found in the rendered text, where escapes are gone: a word joiner splits them instead.
      .replace(/:(?=\/\/)/g, `:${WJ}`)
      .replace(/\b(w)(ww\.)/gi, `$1${WJ}$2`)
      .replace(/@/g, `@${WJ}`)
      .replace(/#(?=\d)/g, `#${WJ}`)
  );
}

/**
 * One value as a Markdown code span: literal (no escapes needed inside), on one line. The fence is
 * longer than any run of backticks in the value.
 * @param {unknown} value
 */
export function mdCode(value) {
  const text = String(value ?? '')
    .replace(CONTROL, ' ')
    .replace(/\|/g, '¦');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Lines of a tool's output as a Markdown fenced code block: literal (no Markdown, HTML, link or mention
 * inside it), control characters but the line breaks made spaces, the fence longer than any run of
 * backticks in the text so no line can close it. `indent` nests it in a list item.
 * @param {unknown} value @param {string} [indent]
 */
export function mdBlock(value, indent = '') {
  const text = String(value ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, (c) => (c === '\n' ? c : ' '));
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}text`, ...text.split('\n'), fence].map((l) => `${indent}${l}`).join('\n');
}

/**
 * One value inside a log line: control characters written as escapes (`\n`, `\u001b`), so a value can
 * never end the line it is on and start a workflow command on the next; legacy `##[` commands split.
 * @param {unknown} value
 */
export function logText(value) {
  return String(value ?? '')
    .replace(CONTROL, (c) =>
      c === '\n'
        ? '\\n'
        : c === '\r'
          ? '\\r'
          : c === '\t'
            ? '\\t'
            : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/##\[/g, `#${WJ}#[`);
}

// Everything a reader of the log (the runner, its log viewer, a terminal) may take for the end of a
// line: LF, CR, VT, FF, NEL (U+0085, a line break for .NET, which the runner is written in) and the
// Unicode line and paragraph separators. After any of them (or at the start), and whatever the runner
// trims before it looks for `::` (any whitespace, NEL included), a value must not start a command.
const COMMAND_AT_LINE_START = /(^|[\n\r\v\f\u0085\u2028\u2029])([\s\u0085]*)::/g;

/**
 * Text (one or many lines, ours with values in them) made safe to print to an Actions log: no line
 * starts a workflow command, whatever character ends the line before it. The last guard before
 * stdout/stderr, for messages that embed values already (errors that quote a file, a name, an engine's
 * message). Line breaks are kept as they are: only the `::` after a line start is split.
 * @param {string} text
 */
export function logSafe(text) {
  return String(text).replace(COMMAND_AT_LINE_START, `$1$2:${WJ}:`).replace(/##\[/g, `#${WJ}#[`);
}
